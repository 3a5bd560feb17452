/**
 * Paths under the `ident` attribute, judged without git's conversion. `ident` makes git
 * collapse `$Id: … $` to `$Id$` before it compares a file with the index, so anything a
 * child writes inside one is invisible to `git status` (once the entry's stat data forces a
 * content comparison, which `git update-index --cacheinfo` does) and to a filtered id; and
 * `<git dir>/info/attributes`, which a child can write, sets it (review gate-7). gate reads
 * every such path directly and takes it for unchanged only when its bytes are what a
 * checkout of the committed blob writes: each `$Id$` expanded to `$Id: <blob id> $`, as
 * gitattributes(5) says, with the blob's own line ends.
 *
 * @module
 */
import { type ObjectFormat, runGit } from "../git.ts";
import { objectId } from "../seed/commit.ts";
import { decodePaths } from "../seed/paths.ts";
import { concatBytes } from "../encoding.ts";

/**
 * The paths among `paths` the `ident` attribute applies to now: one `git check-attr`.
 *
 * @param top The worktree's top level.
 * @param paths Index paths.
 * @returns The paths with `ident` set.
 * @throws {GitError} when git fails.
 */
export async function identPaths(top: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const r = await runGit(["check-attr", "-z", "--stdin", "ident"], {
    cwd: top,
    parse: true,
    stdin: paths.join("\0") + "\0",
  });
  const fields = decodePaths(r.stdout);
  const out: string[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (fields[i + 2] === "set") out.push(fields[i]!);
  }
  return out;
}

const encoder = new TextEncoder();

/**
 * The blob id of what a checkout writes for `content` under `ident`: every `$Id$` replaced
 * by `$Id: <oid> $`, with the blob's own line ends. No CRLF form: a line-end conversion that
 * a child can switch on in `.git/info/attributes` would let carriage returns through
 * unseen (review gate-8), so a checkout that converts line ends too reads as changed.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const blob = new TextEncoder().encode("/* $Id$ *\/\n");
 * const oid = "a".repeat(40);
 * const [lf] = await identCheckoutIds(blob, oid, "sha1");
 * const { objectId } = await import("../seed/commit.ts");
 * assertEquals(lf, await objectId("blob", new TextEncoder().encode(`/* $Id: ${oid} $ *\/\n`), "sha1"));
 * ```
 * @param content The committed blob's bytes.
 * @param oid The blob's id.
 * @param format The repository's object format.
 * @returns The id, in a list.
 */
export async function identCheckoutIds(
  content: Uint8Array,
  oid: string,
  format: ObjectFormat,
): Promise<string[]> {
  const keyword = encoder.encode("$Id$");
  const expanded = encoder.encode(`$Id: ${oid} $`);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i + keyword.length <= content.length; i++) {
    if (keyword.every((b, j) => content[i + j] === b)) {
      parts.push(content.subarray(start, i), expanded);
      i += keyword.length - 1;
      start = i + 1;
    }
  }
  parts.push(content.subarray(start));
  return [await objectId("blob", concatBytes(parts), format)];
}
