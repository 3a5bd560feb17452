/**
 * The one three-way merge of trees a land runs (the land's, and the held report's), with a
 * merge base the child cannot choose. git 2.39's `merge-tree --write-tree` takes two
 * commits and finds their merge base from their parents (`--merge-base` is git 2.40), so
 * the base is given as the one parent of both sides, and three things keep that parentage
 * the parent's:
 *
 * - the walk is blind to a graft file, a shallow file and a commit-graph (all plain files
 *   a child can write beside the objects): {@linkcode runHistory};
 * - the three commits carry a random token in their message, so their ids cannot be known
 *   in advance: a child cannot aim a graft line at them, nor plant an object under one of
 *   their names (git keeps an existing object file when it writes one);
 * - after the merge, each of the three is read back and re-hashed: one rewritten while the
 *   merge ran is an error, and nothing lands.
 *
 * @module
 */
import { gitText } from "../git.ts";
import { readObjects, runHistory } from "../gate/objects.ts";
import { FIXED_IDENTITY, fixedCommitBytes } from "../seed/commit.ts";
import { CHECKOUT_CONFIG, CHECKOUT_ENV } from "./land_config.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { GitError, type GitResult } from "../git_error.ts";

/**
 * The message of a merge's commits: the token makes their ids unpredictable.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(mergeMessage("0f"), "tether land 0f");
 * ```
 * @param token A random token.
 * @returns The message.
 */
export function mergeMessage(token: string): string {
  return `tether land ${token}`;
}

async function writeCommit(
  top: string,
  tree: string,
  parents: string[],
  message: string,
): Promise<{ id: string; bytes: Uint8Array }> {
  const bytes = fixedCommitBytes(tree, parents, message);
  const id = await gitText(["hash-object", "-t", "commit", "-w", "--stdin"], {
    cwd: top,
    env: FIXED_IDENTITY,
    stdin: bytes,
  });
  return { id, bytes };
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Merge `ours` and `theirs` against `base` (all trees): `git merge-tree --write-tree -z`
 * of two commits whose one parent is a commit of `base`.
 *
 * @param top A directory in the repository.
 * @param format The object format.
 * @param base The merge base's tree.
 * @param ours Our side's tree.
 * @param theirs Their side's tree.
 * @returns merge-tree's result (exit 0 clean, 1 conflicts).
 * @throws {GitError} when a commit cannot be written, or does not read back as written.
 */
export async function mergeTrees(
  top: string,
  format: ObjectFormat,
  base: string,
  ours: string,
  theirs: string,
): Promise<GitResult> {
  const message = mergeMessage(crypto.randomUUID()); // tether:guard wt-merge-token
  const root = await writeCommit(top, base, [], message);
  const sides = await Promise.all([
    writeCommit(top, ours, [root.id], message),
    writeCommit(top, theirs, [root.id], message),
  ]);
  // No renormalization, no global or system attribute file (land_config.ts): the land
  // refuses a landing path with a merge attribute, so only git's own text merge runs.
  const merged = await runHistory(
    [...CHECKOUT_CONFIG, "merge-tree", "--write-tree", "-z", sides[0].id, sides[1].id],
    { cwd: top, parse: true, allowFailure: true, env: { ...CHECKOUT_ENV } },
  );
  const read = await readObjects(top, [root.id, ...sides.map((s) => s.id)], format);
  for (const written of [root, ...sides]) {
    const back = read.get(written.id);
    if (back?.kind !== "ok" || !same(back.content, written.bytes)) { // tether:guard wt-merge-readback
      throw new GitError(
        "failed",
        `the land's merge commit ${written.id} does not read back as written (the object store was altered): nothing landed`,
      );
    }
  }
  return merged;
}
