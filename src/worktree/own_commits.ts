/**
 * Which commits are a child's own work, for `gate --worktree`'s commit evidence. The range
 * `<seed HEAD>..<child HEAD>` is the child's to shape: a merge can bring in a sibling's
 * commit, or any commit of another branch, without changing a file. A commit is therefore
 * the child's own only when it is
 *
 * - on the child's first-parent line (a merge's second-parent history is not the child's),
 * - reachable from no ref but the child's own (its branch, spawn ref and land record ref):
 *   not from the seed's HEAD, any other branch or tag, a sibling's `tether/*` branch or
 *   record, nor any other worktree's HEAD,
 *
 * one `git rev-list --first-parent <child HEAD> --not <every other tip>` (tips by object id,
 * so no ref name is ever passed back to git); and it counts as evidence only when its own
 * change (against its first parent) touches paths the child changed since its seed and
 * nothing else but paths it sets to the seed's content (the parent's carried edits). The
 * decisions are pure functions here; git is asked at the edge.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { runHistory } from "../gate/objects.ts";
import { decodePath } from "../paths.ts";

/** The child's own commits and which of them count as evidence. */
export interface OwnCommits {
  /** The child's own commits since its seed, oldest first. */
  commits: string[];
  /** Those whose own change touches only paths the child changed: evidence may cite them. */
  counted: Set<string>;
}

function split(bytes: Uint8Array, separator: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === separator) {
      if (i > start) out.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}

const ascii = new TextDecoder();

/**
 * The tips of every ref but the child's own, from `git for-each-ref --format='%(objectname)
 * %(refname)'`. A ref name is decoded without loss only to compare it with the child's own
 * names; what goes back to git is the object id.
 *
 * @example A sibling's branch and record are other tips; the child's own refs are not
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode(
 *   "aa refs/heads/tether/s-1\nbb refs/heads/tether/s-2\ncc refs/tether/landed/s-2\ndd refs/heads/main\n",
 * );
 * assertEquals(otherRefTips(out, ["refs/heads/tether/s-1"]), ["bb", "cc", "dd"]);
 * ```
 * @param listing git's output.
 * @param own The child's own full ref names.
 * @returns The object ids of the other refs.
 */
export function otherRefTips(listing: Uint8Array, own: readonly string[]): string[] {
  const mine = new Set(own);
  const tips: string[] = [];
  for (const line of split(listing, 10)) {
    const space = line.indexOf(32);
    if (space <= 0) continue;
    const name = decodePath(line.subarray(space + 1));
    if (!mine.has(name)) tips.push(ascii.decode(line.subarray(0, space))); // tether:guard wt-own-commit-refs
  }
  return tips;
}

/**
 * The HEADs of every worktree but the child's (a detached HEAD is on no ref), from
 * `git worktree list --porcelain -z`. The child's entry is the one on its branch.
 *
 * @example The parent and a detached sibling count; the child does not
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode(
 *   "worktree /p\0HEAD aa\0branch refs/heads/main\0\0worktree /k/1\0HEAD bb\0branch refs/heads/tether/s-1\0\0worktree /k/2\0HEAD cc\0detached\0\0",
 * );
 * assertEquals(otherWorktreeHeads(out, "refs/heads/tether/s-1"), ["aa", "cc"]);
 * ```
 * @param listing git's output.
 * @param branchRef The child's branch (full name).
 * @returns The other worktrees' HEADs.
 */
export function otherWorktreeHeads(listing: Uint8Array, branchRef: string): string[] {
  const heads: string[] = [];
  let head: string | undefined;
  let branch: string | undefined;
  const flush = () => {
    if (head !== undefined && branch !== branchRef) heads.push(head); // tether:guard wt-own-commit-heads
    head = branch = undefined;
  };
  for (const line of split(listing, 0)) {
    const text = decodePath(line);
    if (text.startsWith("worktree ")) flush();
    else if (text.startsWith("HEAD ")) head = text.slice(5);
    else if (text.startsWith("branch ")) branch = text.slice(7);
  }
  flush();
  return heads;
}

/**
 * Parse `git rev-list --parents` (newest first) into commits and their first parents.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseFirstParents("cc bb xx\nbb aa\naa\n"), [
 *   { id: "cc", parent: "bb" },
 *   { id: "bb", parent: "aa" },
 *   { id: "aa" },
 * ]);
 * ```
 * @param text git's output.
 * @returns One entry per commit, in git's order.
 */
export function parseFirstParents(text: string): { id: string; parent?: string }[] {
  return text.split("\n").filter((l) => l !== "").map((line) => {
    const [id = "", parent] = line.split(" ");
    return parent === undefined ? { id } : { id, parent };
  });
}

/**
 * Parse `git diff-tree --stdin -r -z --raw --no-renames` into the paths each commit
 * changed. A path only ever follows a `:`-record, so a name that looks like an id is
 * never read as a commit.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode("c1\0:000000 100644 0 1 A\0n.txt\0c2\0:100644 100644 1 2 M\0c1\0");
 * assertEquals(parseChangedByCommit(out), new Map([["c1", ["n.txt"]], ["c2", ["c1"]]]));
 * ```
 * @param bytes git's output.
 * @returns Commit → the paths its own change touched.
 */
export function parseChangedByCommit(bytes: Uint8Array): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const tokens = split(bytes, 0);
  let current: string[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token[0] === 58 /* ":" */) {
      const path = tokens[++i];
      if (path !== undefined && current !== undefined) current.push(decodePath(path));
    } else {
      current = [];
      out.set(ascii.decode(token), current);
    }
  }
  return out;
}

/**
 * Which of the child's own commits count as evidence: those whose own change (against the
 * first parent) touches at least one path the child changed since its seed and nothing
 * else, except paths it sets to what the seed holds in its working tree or index (the
 * parent's carried edits, which the child's first commit takes in along with its own work,
 * or a change undone).
 *
 * @example A commit undone later touched a path the child did not change in the end
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const touched = new Map([
 *   ["c1", ["a.txt"]], ["c2", ["carried.txt", "n.txt"]], ["c3", ["a.txt"]], ["c4", ["carried.txt"]],
 * ]);
 * // Where each commit's tree differs from the seed's working tree and index.
 * const fromSeed = new Map([["c1", ["a.txt"]], ["c2", ["n.txt"]], ["c3", ["n.txt"]], ["c4", ["n.txt"]]]);
 * const decided = countOwnCommits(["c1", "c2", "c3", "c4", "c5"], touched, fromSeed, new Set(["n.txt"]));
 * assertEquals([...decided.counted], ["c2"]);
 * ```
 * @param commits The child's own commits.
 * @param touched Commit → paths its own change touched (absent: none).
 * @param fromSeed Commit → paths where its tree differs from the seed's working tree and
 *   from its index.
 * @param changed The paths the child changed since its seed.
 * @returns The decision.
 */
export function countOwnCommits(
  commits: readonly string[],
  touched: ReadonlyMap<string, readonly string[]>,
  fromSeed: ReadonlyMap<string, readonly string[]>,
  changed: ReadonlySet<string>,
): OwnCommits {
  const counted = commits.filter((id) => {
    const paths = touched.get(id) ?? [];
    const differs = new Set(fromSeed.get(id) ?? []);
    return paths.some((path) => changed.has(path)) && // tether:guard wt-own-commit-work
      paths.every((path) => changed.has(path) || !differs.has(path)); // tether:guard wt-own-commit-paths
  });
  return { commits: [...commits], counted: new Set(counted) };
}

/** What {@linkcode readOwnCommits} needs to know about the child. */
export interface OwnCommitsQuery {
  /** The child's HEAD. */
  head: string;
  /** The seed (its tree is the seed's working tree). */
  seed: string;
  /** The seed's index commit (its tree is the seed's index). */
  seedIndex: string;
  /** The seed's HEAD (the parent's HEAD at the spawn). */
  seedHead: string;
  /** The child's own refs (full names): its branch first, then its spawn ref and record ref. */
  own: readonly string[];
  /** The paths the child changed since its seed. */
  changed: ReadonlySet<string>;
}

/** Paths each commit of `lines` changed, each line `<commit> [<compared with>]` (git's `--stdin`). */
async function diffEach(lines: readonly string[]): Promise<Map<string, string[]>> {
  const diffed = await runHistory(
    ["diff-tree", "--stdin", "-r", "-z", "--raw", "--no-renames", "--root"],
    { parse: true, stdin: lines.join("\n") + "\n" },
  );
  return parseChangedByCommit(diffed.stdout);
}

/**
 * Ask git which commits are the child's own (see the module) and decide which count.
 * The walk reads the objects themselves (no grafts, shallow file or commit-graph).
 *
 * @param query The child.
 * @returns The child's own commits and the decision.
 * @throws {GitError} when git fails.
 */
export async function readOwnCommits(query: OwnCommitsQuery): Promise<OwnCommits> {
  const [refs, worktrees] = await Promise.all([
    runGit(["for-each-ref", "--format=%(objectname) %(refname)"], { parse: true }),
    runGit(["worktree", "list", "--porcelain", "-z"], { parse: true }),
  ]);
  const tips = new Set([
    query.seedHead,
    ...otherRefTips(refs.stdout, query.own),
    ...otherWorktreeHeads(worktrees.stdout, query.own[0] ?? ""),
  ]);
  const walked = await runHistory(
    // A tip naming no object (a broken ref anyone can write) reaches nothing: it is skipped.
    ["rev-list", "--first-parent", "--parents", "--ignore-missing", "--stdin"], // tether:guard wt-own-first-parent
    {
      parse: true,
      stdin: [query.head, ...[...tips].map((t) => `^${t}`)].join("\n") + "\n",
    },
  );
  const line = parseFirstParents(ascii.decode(walked.stdout)).reverse();
  if (line.length === 0) return { commits: [], counted: new Set() };
  // Each commit against its first parent only (a root commit against nothing), and against
  // the seed's working tree and index (each given to git as the commit's one parent).
  const [touched, fromWorktree, fromIndex] = await Promise.all([
    diffEach(line.map((c) => c.parent === undefined ? c.id : `${c.id} ${c.parent}`)),
    diffEach(line.map((c) => `${c.id} ${query.seed}`)),
    diffEach(line.map((c) => `${c.id} ${query.seedIndex}`)),
  ]);
  // A path holds the seed's content when it equals the seed's working tree or its index.
  const fromSeed = new Map(
    line.map((c) => {
      const index = new Set(fromIndex.get(c.id) ?? []);
      return [c.id, (fromWorktree.get(c.id) ?? []).filter((path) => index.has(path))];
    }),
  );
  return countOwnCommits(line.map((c) => c.id), touched, fromSeed, query.changed);
}
