/**
 * The land record: after `gate --worktree DIR --seed ID --land --keep`, a commit of the
 * child's tree as it landed whose one parent is the seed. The kept land prints its id; the
 * parent passes it back to the child's next land as `--landed ID`, as it passes the seed.
 *
 * Refs are shared, so a child can write any ref, a sibling's included: the record is
 * therefore never found through a ref. Its id is what the parent holds (from gate's own
 * output only: a record-shaped commit is something a child can make), and it is read back
 * like a seed: the object must hash to that id and be exactly the commit a kept
 * land writes for this child's branch on this seed. The ref a kept land also writes
 * (`refs/tether/landed/<seed 12 hex>-<n>`) only keeps the object from being pruned; it is
 * never read as the record. Without `--landed` a land merges against the seed, as a first
 * land does.
 *
 * With a record, the land's merge base is the record's tree: what landed before is in the
 * base, so only what the child changed since the record lands (an undo of a landed change
 * or a rename since included), and claims and file evidence are judged against those
 * paths. A path the child has not changed since keeps the parent's version, whatever the
 * parent did with it since (kept it, edited next to it, took it out again). Whether the
 * parent still holds the record's change there is decided by content: a three-way merge of
 * the record's change (base seed, theirs record) into the parent's file leaves that file
 * unchanged.
 *
 * @module
 */
import { gitText, runGit } from "../git.ts";
import { FIXED_IDENTITY, fixedCommitBytes, objectId } from "../seed/commit.ts";
import { readObjects } from "../gate/objects.ts";
import { changedPaths } from "../seed/state.ts";
import { parseMergeTree } from "./conflicts.ts";
import { mergeTrees } from "./merge.ts";
import { LANDED_REF_PREFIX } from "./plan.ts";
import { sameBytes } from "../encoding.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { failure, GitError } from "../git_error.ts";

/**
 * The ref that anchors a child's records against pruning (never read as a record).
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

/**
 * The exact bytes of a child's land record: a commit of `tree` on the seed, with tether's
 * fixed identity and a message naming the child's branch and a random token (so that no
 * one can know a record's id before the kept land writes it, and plant an object under it).
 *
 * @example A record names its branch, so one child's record is never another's
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = recordBytes("a".repeat(40), "b".repeat(40), "tether/bbbbbbbbbbbb-1", "0".repeat(32));
 * assertEquals(new TextDecoder().decode(bytes).endsWith(`\n\ntether: landed tether/bbbbbbbbbbbb-1 ${"0".repeat(32)}\n`), true);
 * ```
 * @param tree The child's tree that landed.
 * @param seed The seed.
 * @param branch The child's branch.
 * @param token 32 lowercase hex.
 * @returns The commit object's content.
 */
export function recordBytes(tree: string, seed: string, branch: string, token: string): Uint8Array {
  return fixedCommitBytes(tree, [seed], `tether: landed ${branch} ${token}`);
}

/** Why a `--landed` record cannot be used: one line, and what not to do instead. */
function gone(id: string, what: string): GitError {
  return new GitError(
    "failed",
    `--landed ${id}: ${what}: the land record was deleted or altered since the kept land; nothing landed (do not land this child without --landed: that merges against the seed and brings back what the parent took out since; see docs/worktree.md, "When the land record is gone")`,
  );
}

/**
 * Write the object of a kept land's record ({@linkcode recordBytes}, with a fresh token) and
 * read it back: it must be exactly those bytes. Runs before the land writes anything, so a
 * kept land never prints an id the next land cannot use.
 *
 * @param top A directory in the repository.
 * @param format The object format.
 * @param branch The child's branch.
 * @param seed The seed.
 * @param tree The child's tree that lands.
 * @returns The record's id.
 * @throws {GitError} when it cannot be written, or does not read back as written.
 */
export async function writeRecord(
  top: string,
  format: ObjectFormat,
  branch: string,
  seed: string,
  tree: string,
): Promise<string> {
  const token = crypto.randomUUID().replaceAll("-", ""); // tether:guard wt-record-token
  const bytes = recordBytes(tree, seed, branch, token);
  const id = await gitText(["hash-object", "-t", "commit", "-w", "--stdin"], {
    cwd: top,
    env: FIXED_IDENTITY,
    stdin: bytes,
  });
  const back = (await readObjects(top, [id], format)).get(id);
  if (back?.kind !== "ok" || !sameBytes(back.content, bytes)) { // tether:guard wt-record-readback
    throw new GitError(
      "failed",
      `the land record ${id} does not read back as written (the object store was altered): nothing landed`,
    );
  }
  return id;
}

/**
 * Anchor a record against pruning: its ref (never read as the record).
 *
 * @param branch The child's branch.
 * @param id The record's id.
 * @returns Why the ref could not be written, or undefined.
 */
export async function anchorRecord(branch: string, id: string): Promise<string | undefined> {
  try {
    await runGit(["update-ref", "-m", "tether: land", recordRef(branch), id]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const RECORD_MESSAGE = /\n\ntether: landed (\S+) ([0-9a-f]{32})\n$/;

/**
 * Read back the record the parent names with `--landed`: the object must be there, hash to
 * `id`, and be exactly a record a kept land writes for `branch` on `seed`.
 *
 * @param top A directory in the repository.
 * @param id The record's full id, as the parent gave it.
 * @param seed The seed the parent gave.
 * @param branch The child's branch.
 * @param format The object format.
 * @returns The tree the record holds.
 * @throws {GitError} when the object is missing, altered, or not that record (one line each).
 */
export async function readRecord(
  top: string,
  id: string,
  seed: string,
  branch: string,
  format: ObjectFormat,
): Promise<string> {
  const read = (await readObjects(top, [id], format)).get(id);
  if (read === undefined || read.kind === "missing") throw gone(id, "no such object");
  if (read.kind === "forged") throw gone(id, "the object stored under that id does not hash to it");
  const content = new TextDecoder().decode(read.content);
  const tree = /^tree ([0-9a-f]+)\n/.exec(content)?.[1] ?? "";
  const [, named = "", token = ""] = RECORD_MESSAGE.exec(content) ?? [];
  const exact = read.type === "commit" && named === branch &&
    await objectId("commit", recordBytes(tree, seed, branch, token), format) === id;
  if (!exact) { // tether:guard wt-landed-record
    throw new GitError(
      "failed",
      `--landed ${id} is not a land record of ${branch} on the seed ${seed} (take it only from this child's kept land: its "land record:" line, or land.record in --json)`,
    );
  }
  return tree;
}

/**
 * The paths already landed: those the child changed since the seed and has not changed
 * since the record (`sinceRecord`: record tree → child's tree). The land leaves them as
 * the parent has them.
 *
 * @example The child added m.txt after its kept land of a.txt
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(alreadyLanded(["a.txt", "m.txt"], ["m.txt"]), ["a.txt"]);
 * ```
 * @param changed The paths the child changed since the seed.
 * @param sinceRecord The paths where the child's tree differs from the record's.
 * @returns The paths already landed, in `changed`'s order.
 */
export function alreadyLanded(
  changed: readonly string[],
  sinceRecord: readonly string[],
): string[] {
  const again = new Set(sinceRecord);
  return changed.filter((p) => !again.has(p));
}

/**
 * The paths among `paths` where the parent still holds the record's change, decided by
 * content: a three-way merge of the record's change (base the seed's tree, theirs the
 * record's) into the parent's working tree leaves the parent's entry at the path
 * unchanged, without a conflict there.
 *
 * @param top The parent's top level.
 * @param format The object format.
 * @param seedTree The seed's working-tree tree.
 * @param parentTree The parent's working-tree tree.
 * @param theirs The record's tree.
 * @param paths The paths already landed.
 * @returns Those the parent holds, in order.
 * @throws {GitError} when git fails.
 */
export async function heldPaths(
  top: string,
  format: ObjectFormat,
  seedTree: string,
  parentTree: string,
  theirs: string,
  paths: readonly string[],
): Promise<string[]> {
  if (paths.length === 0) return [];
  const merged = await mergeTrees(top, format, seedTree, parentTree, theirs);
  const { tree, conflicts } = parseMergeTree(merged.stdout);
  if ((merged.code !== 0 && merged.code !== 1) || !tree) {
    throw failure(["merge-tree"], merged);
  }
  const moved = new Set([
    ...await changedPaths(top, parentTree, tree),
    ...conflicts.lines,
    ...conflicts.types,
    ...conflicts.other,
  ]);
  return paths.filter((p) => !moved.has(p));
}
