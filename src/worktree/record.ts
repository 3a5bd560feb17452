/**
 * The land record: after `gate --worktree DIR --seed ID --land --keep`, the child's tree
 * as it landed, at `refs/tether/landed/<seed 12 hex>-<n>` (a commit of that tree whose one
 * parent is the seed). A later land of the same child leaves alone every path the child
 * has not changed since, so its already-landed change is not merged a second time.
 *
 * Refs are shared, so a child can write this record too. The record is therefore only ever
 * used to leave a path out of a land, never as a merge base: at a path left out the parent
 * keeps exactly what it has, so a forged record can hold back the child's own change but
 * never write anything, overwrite the parent's edits or bring back what it removed. A path
 * is left out only when the child holds there what the record holds (it has not changed it
 * since) and the parent holds the change the record made there (the lines it added and
 * removed, the parent's own edits around them allowed); a record that is not a commit on
 * the seed is not used at all.
 *
 * @module
 */
import { GitError, gitText, type ObjectFormat, runGit } from "../git.ts";
import { readObjects } from "../gate/objects.ts";
import { decodePaths } from "../seed/paths.ts";
import type { RawEntry } from "../context/content.ts";
import { LANDED_REF_PREFIX } from "./plan.ts";
import { FIXED_IDENTITY } from "../seed/commit.ts";


/**
 * The record's ref for a child's branch.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(recordRef("tether/0123456789ab-2"), "refs/tether/landed/0123456789ab-2");
 * ```
 * @param branch The child's branch (short name).
 * @returns The full ref name.
 */
export function recordRef(branch: string): string {
  return `${LANDED_REF_PREFIX}${branch.slice(branch.indexOf("/") + 1)}`;
}

/** A path's entry in a tree: its mode and id, or absent. */
export interface Entry {
  mode: string;
  oid: string;
}

function lineCounts(bytes: Uint8Array | undefined): Map<string, number> {
  const counts = new Map<string, number>();
  if (bytes === undefined) return counts;
  // Latin-1 maps every byte to one code unit: lines of any bytes compare exactly.
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  }
  for (const line of text.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1);
  return counts;
}

/**
 * Whether the parent's file holds the change the record made to it (seed → record): every
 * line the record added is in the parent's file as often as in the record's, and every
 * line it removed is there no more often than in the record's. The parent may have edited
 * around it; a parent that lacks any of it (a change it never got, or edited the landed
 * lines themselves) does not hold it.
 *
 * @example A line the parent got, with one of its own next to it; and one it never got
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const b = (t: string) => new TextEncoder().encode(t);
 * assertEquals(holdsChange(b("one\n"), b("one\nchild\n"), b("one\nchild\nparent\n")), true);
 * assertEquals(holdsChange(b("one\n"), b("one\nchild\n"), b("one\nparent\n")), false);
 * ```
 * @param seed The seed's content (undefined: absent).
 * @param recorded The record's content (undefined: absent).
 * @param parent The parent's content (undefined: absent).
 * @returns Whether the parent holds the record's change.
 */
export function holdsChange(
  seed: Uint8Array | undefined,
  recorded: Uint8Array | undefined,
  parent: Uint8Array | undefined,
): boolean {
  if (recorded === undefined || parent === undefined) return recorded === parent;
  const [s, r, p] = [lineCounts(seed), lineCounts(recorded), lineCounts(parent)];
  for (const line of new Set([...s.keys(), ...r.keys()])) {
    const [cs, cr, cp] = [s.get(line) ?? 0, r.get(line) ?? 0, p.get(line) ?? 0];
    if ((cr > cs && cp < cr) || (cr < cs && cp > cr)) return false;
  }
  return true;
}

/**
 * The paths a land leaves out as already landed: those the child changed since the seed,
 * that it has not changed since the record (`sinceRecord`: record tree → child's tree)
 * and where the parent holds the record's change (`held`).
 *
 * @example The parent edited next to a landed line; the child then added m.txt
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(alreadyLanded(["a.txt", "m.txt"], ["m.txt"], ["a.txt"]), ["a.txt"]);
 * // A record naming a change the parent does not hold (a sibling's forgery) leaves nothing out.
 * assertEquals(alreadyLanded(["a.txt", "m.txt"], [], []), []);
 * ```
 * @param changed The paths the child changed since the seed.
 * @param sinceRecord The paths where the child's tree differs from the record's.
 * @param held The paths where the parent holds the record's change.
 * @returns The paths to leave out, in `changed`'s order.
 */
export function alreadyLanded(
  changed: readonly string[],
  sinceRecord: readonly string[],
  held: readonly string[],
): string[] {
  const changedAgain = new Set(sinceRecord);
  const holds = new Set(held);
  return changed.filter((p) =>
    !changedAgain.has(p) && // tether:guard wt-record-unchanged
    holds.has(p) // tether:guard wt-record-held
  );
}

/** `diff-tree --raw -z` records: path → the two sides' entries (absent: mode 000000). */
async function rawDiff(
  top: string,
  from: string,
  to: string,
): Promise<Map<string, [Entry | undefined, Entry | undefined]>> {
  const { stdout } = await runGit(
    ["diff-tree", "-r", "-z", "--no-renames", "--raw", "--no-abbrev", "--end-of-options", from, to],
    { cwd: top, parse: true },
  );
  const fields = decodePaths(stdout);
  const out = new Map<string, [Entry | undefined, Entry | undefined]>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [ma = "", mb = "", oa = "", ob = ""] = fields[i]!.slice(1).split(" ");
    const side = (mode: string, oid: string) => /^0+$/.test(mode) ? undefined : { mode, oid };
    out.set(fields[i + 1]!, [side(ma, oa), side(mb, ob)]);
  }
  return out;
}

/**
 * The paths among `candidates` where the parent's tree holds the change the record made
 * (see {@linkcode holdsChange}): the same mode as the record's, and for a regular file the
 * record's added and removed lines; for anything else the record's exact entry.
 *
 * @param top The parent's top level.
 * @param format The object format.
 * @param trees The seed's, the record's and the parent's working-tree trees.
 * @param candidates The paths to look at (the child's changed paths).
 * @returns The paths the parent holds.
 * @throws {GitError} when git fails.
 */
export async function heldPaths(
  top: string,
  format: ObjectFormat,
  trees: { seed: string; record: string; parent: string },
  candidates: readonly string[],
): Promise<string[]> {
  if (candidates.length === 0) return [];
  const [recorded, parent] = await Promise.all([
    rawDiff(top, trees.seed, trees.record),
    rawDiff(top, trees.seed, trees.parent),
  ]);
  const want: string[] = [];
  const plan: [string, Entry | undefined, Entry | undefined, Entry | undefined][] = [];
  for (const path of candidates) {
    const r = recorded.get(path);
    const p = parent.get(path);
    // The record changed it; the parent must have changed it since the seed as well.
    if (r === undefined || p === undefined) continue;
    const [s, l] = r;
    const now = p[1];
    if (l?.mode !== now?.mode) continue;
    plan.push([path, s, l, now]);
    for (const e of [s, l, now]) if (e?.mode.startsWith("100")) want.push(e.oid);
  }
  const blobs = await readObjects(top, want, format);
  const content = (e: Entry | undefined): Uint8Array | undefined => {
    if (e === undefined || !e.mode.startsWith("100")) return undefined;
    const o = blobs.get(e.oid);
    return o?.kind === "ok" ? o.content : new Uint8Array([0xff, 0xfe, 0xfd]);
  };
  return plan.filter(([, s, l, now]) =>
    l === undefined || !l.mode.startsWith("100")
      ? l?.oid === now?.oid
      : holdsChange(s?.mode.startsWith("100") ? content(s) : undefined, content(l), content(now))
  ).map(([path]) => path);
}

/**
 * Read a child's record: the tree it holds, or undefined when there is none or it is not
 * a commit whose only parent is the seed (then no path is left out).
 *
 * @param branch The child's branch.
 * @param seed The seed the parent gave.
 * @returns The recorded tree, and whether a record existed but was not used.
 */
export async function readRecord(
  branch: string,
  seed: string,
): Promise<{ tree?: string; ignored: boolean }> {
  const out = await gitText([
    "for-each-ref",
    "--format=%(objecttype) %(tree) %(parent)",
    recordRef(branch),
  ]);
  if (out === "") return { ignored: false };
  const [type, tree, ...parents] = out.split("\n")[0]!.split(" ");
  if (type !== "commit" || !tree || parents.join(" ") !== seed) { // tether:guard wt-record-seed
    return { ignored: true };
  }
  return { tree, ignored: false };
}

/**
 * Write the record of a land: a commit of the child's tree on the seed.
 *
 * @param branch The child's branch.
 * @param seed The seed.
 * @param tree The child's tree that landed.
 * @throws {GitError} when git fails.
 */
export async function writeRecord(branch: string, seed: string, tree: string): Promise<void> {
  const commit = await gitText(
    ["commit-tree", "-p", seed, "-m", `tether: landed ${branch}`, "--end-of-options", tree],
    { env: FIXED_IDENTITY },
  );
  await runGit(["update-ref", "-m", "tether: land", recordRef(branch), commit]);
}

/**
 * The seed's tree with the child's entries at `paths` (a path the child does not hold is
 * removed): the land's merge base, so that at those paths base and child agree and the
 * parent keeps what it has.
 *
 * @param index A fresh scratch index the parent names.
 * @param seedTree The seed's working-tree tree.
 * @param files The child's entries.
 * @param paths The paths to take from the child.
 * @param zero The null object id (a removal's id).
 * @returns The tree's id.
 * @throws {GitError} when git fails.
 */
export async function baseTree(
  index: string,
  seedTree: string,
  files: ReadonlyMap<string, RawEntry>,
  paths: readonly string[],
  zero: string,
): Promise<string> {
  const env = { GIT_INDEX_FILE: index, GIT_NO_REPLACE_OBJECTS: "1" };
  await runGit(["read-tree", "--end-of-options", seedTree], { env });
  // Removals first, so a directory can replace a file at the same name and back.
  const gone = paths.filter((p) => !files.has(p)).map((p) => `0 ${zero}\t${p}\0`);
  const kept = paths.filter((p) => files.has(p)).map((p) => {
    const e = files.get(p)!;
    return `${e.mode} ${e.oid}\t${p}\0`;
  });
  await runGit(["update-index", "-z", "--replace", "--index-info"], {
    env,
    stdin: [...gone, ...kept].join(""),
  });
  const tree = await gitText(["write-tree"], { env });
  if (!tree) throw new GitError("failed", "git write-tree printed no tree");
  return tree;
}
