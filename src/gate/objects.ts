/**
 * Reading git objects that are checked against their names. git does not verify a loose
 * object's hash when it reads it, and a replace ref makes it serve another object under
 * the same name: anyone who can write to the object store (a child agent can) could
 * otherwise change what a snapshot, a commit or a tree says. Everything gate reads from
 * the object store to reach a verdict comes through here and is re-hashed in process.
 *
 * @module
 */
import { type GitOptions, runGit } from "../git.ts";
import { objectId } from "../seed/commit.ts";
import { decodePath } from "../paths.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { type GitResult } from "../git_error.ts";

/**
 * The history gate reads is the objects themselves: no graft file, no shallow file (both
 * are plain files a child can write in the git directory), and no commit-graph (a cache a
 * child can rewrite); replace refs are off for every call already. A genuinely shallow
 * clone then cannot be walked past its boundary: git fails, and gate says so (exit 3).
 */
export const HISTORY_ENV: Readonly<Record<string, string>> = {
  GIT_GRAFT_FILE: "/nonexistent/tether-no-grafts",
  GIT_SHALLOW_FILE: "/nonexistent/tether-no-shallow",
};

/** Config for history walks: no commit-graph. */
export const HISTORY_CONFIG: readonly string[] = ["-c", "core.commitGraph=false"];

/**
 * Run a git command whose answer depends on commit parentage (a walk, a merge base, a
 * merge) blind to what a child can write beside the objects: {@linkcode HISTORY_ENV} (no
 * graft file, no shallow file) and {@linkcode HISTORY_CONFIG} (no commit-graph), with
 * replace refs off as for every call. Every such call in worktree mode goes through here.
 *
 * @param args The subcommand and its arguments.
 * @param options As for `runGit`; its `env` cannot turn grafts or the shallow file back on.
 * @returns git's result.
 * @throws {GitError} as `runGit` does.
 */
export function runHistory(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return runGit([...HISTORY_CONFIG, ...args], {
    ...options,
    env: { ...options.env, ...HISTORY_ENV }, // tether:guard wt-history-blind
  });
}

const decoder = new TextDecoder();

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Bytes below 0x80 as the characters they are. */
function latin(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/** An object read from the store: its type and content, or why it cannot be trusted. */
export type StoredObject =
  | { kind: "ok"; type: string; content: Uint8Array }
  | { kind: "missing" }
  | { kind: "forged"; type: string };

/**
 * Read objects by id in one `git cat-file --batch` call and check each against its name.
 * Replace objects are off for every call of the runner, so git serves the object stored
 * under the id; an object whose content does not hash to the id it was read under (a
 * rewritten loose object, a planted one) is `forged`.
 *
 * @param top Top level.
 * @param oids Validated full object ids of the repository's format.
 * @param format The repository's object format.
 * @returns Object id → what was read.
 * @throws {GitError} when git fails.
 */
export async function readObjects(
  top: string,
  oids: readonly string[],
  format: ObjectFormat,
): Promise<Map<string, StoredObject>> {
  const unique = [...new Set(oids)];
  const out = new Map<string, StoredObject>();
  if (unique.length === 0) return out;
  const { stdout } = await runGit(["cat-file", "--batch"], {
    cwd: top,
    env: { ...HISTORY_ENV },
    parse: true,
    stdin: unique.join("\n") + "\n",
  });
  let at = 0;
  const checks: Promise<void>[] = [];
  for (const oid of unique) {
    const end = stdout.indexOf(10, at);
    if (end < 0) break;
    const header = decoder.decode(stdout.subarray(at, end));
    at = end + 1;
    const match = /^(\S+) (\S+) (\d+)$/.exec(header);
    if (!match) {
      out.set(oid, { kind: "missing" });
      continue;
    }
    const [, name, type, size] = match as unknown as [string, string, string, string];
    const content = stdout.slice(at, at + Number(size));
    at += Number(size) + 1;
    // Every object is hashed at once (one digest does not wait for the last).
    checks.push((async () => {
      const checked = name === oid && content.length === Number(size) &&
        await objectId(type, content, format) === oid; // guard: object hashes to its name
      out.set(oid, checked ? { kind: "ok", type, content } : { kind: "forged", type });
    })());
  }
  await Promise.all(checks);
  // In the order asked for, as before: the checks may finish in any order.
  return new Map([...unique].flatMap((oid) => {
    const found = out.get(oid);
    return found ? [[oid, found] as const] : [];
  }));
}

/** One entry of a tree object. */
export interface TreeEntry {
  /** The mode as the tree stores it (`100644`, `100755`, `120000`, `160000`, `40000`). */
  mode: string;
  /** The entry's name (decoded as UTF-8, as gate decodes every path git prints). */
  name: string;
  /** The object id it names. */
  oid: string;
}

/**
 * Parse the content of a tree object: `<mode> <name>\0<raw id>` repeated.
 *
 * @example One file
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const raw = new Uint8Array([...new TextEncoder().encode("100644 a\0"), ...new Uint8Array(20).fill(171)]);
 * assertEquals(parseTree(raw, "sha1"), [{ mode: "100644", name: "a", oid: "ab".repeat(20) }]);
 * const odd = new Uint8Array([...new TextEncoder().encode("100644 é"), 0xff, 0, ...new Uint8Array(20)]);
 * assertEquals(parseTree(odd, "sha1")[0]!.name, "é\udcff");
 * ```
 * @param content The tree's content.
 * @param format The repository's object format (the raw id is 20 or 32 bytes).
 * @returns The entries in stored order.
 * @throws {Error} when the content is not a tree.
 */
export function parseTree(content: Uint8Array, format: ObjectFormat): TreeEntry[] {
  const width = format === "sha256" ? 32 : 20;
  const entries: TreeEntry[] = [];
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(32, at);
    const nul = content.indexOf(0, space + 1);
    if (space < 0 || nul < 0 || nul + 1 + width > content.length) {
      throw new Error("Cannot parse tree object: truncated entry");
    }
    // An ASCII name is itself (most are), read without a decoder call; anything else is
    // decoded exactly. Plain loops: a tree of a large directory has many entries.
    let ascii = true;
    for (let i = space + 1; i < nul && ascii; i++) ascii = content[i]! < 0x80;
    const name = content.subarray(space + 1, nul);
    let oid = "";
    for (let i = nul + 1; i < nul + 1 + width; i++) oid += HEX[content[i]!];
    entries.push({
      mode: latin(content.subarray(at, space)),
      name: ascii ? latin(name) : decodePath(name),
      oid,
    });
    at = nul + 1 + width;
  }
  return entries;
}

/**
 * The tree and committer time of a commit's content.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const text = `tree ${"a".repeat(40)}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1700000000 +0100\n\nmsg\n`;
 * assertEquals(parseCommit(new TextEncoder().encode(text)), { tree: "a".repeat(40), time: 1700000000 });
 * ```
 * @param content The commit's content.
 * @returns Tree id and committer time (seconds since the epoch, NaN when unreadable).
 */
export function parseCommit(content: Uint8Array): { tree: string; time: number } {
  const text = decoder.decode(content);
  const headers = text.slice(0, (text.indexOf("\n\n") + 1 || text.length + 1) - 1);
  const tree = /^tree ([0-9a-f]+)$/m.exec(headers)?.[1] ?? "";
  const time = Number(/^committer .* (\d+) [+-]\d{4}$/m.exec(headers)?.[1] ?? NaN);
  return { tree, time };
}
