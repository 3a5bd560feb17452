/**
 * A seed: one commit object that records a {@linkcode TreeState}. Its tree is the
 * working tree, its first parent the HEAD commit, its second parent a commit whose tree
 * is the index (the layout `git stash` uses). Author, committer and date are fixed, so a
 * seed's id is a function of the state alone: the same state always gives the same seed.
 * Seeds are anchored by a ref under `refs/tether/seeds/` so housekeeping cannot prune
 * them, and read back only after their bytes are checked against their id.
 *
 * @module
 */
import { gitText, runGit } from "../git.ts";
import type { TreeState } from "./state.ts";
import { isFullOid, type ObjectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** Where seeds are anchored. */
export const SEED_REF_PREFIX = "refs/tether/seeds/";

const NO_REPLACE = { GIT_NO_REPLACE_OBJECTS: "1" };
const IDENTITY_LINE = "tether <tether@localhost> 0 +0000";
const INDEX_MESSAGE = "tether seed: index";
const WORKTREE_MESSAGE = "tether seed: working tree";
/**
 * The environment of every commit tether writes (seeds, land commits, land records): a
 * fixed author, committer and date, so a commit's id is a function of its tree and
 * parents, and replace refs off.
 */
export const FIXED_IDENTITY: Readonly<Record<string, string>> = {
  ...NO_REPLACE,
  GIT_AUTHOR_NAME: "tether",
  GIT_AUTHOR_EMAIL: "tether@localhost",
  GIT_AUTHOR_DATE: "@0 +0000",
  GIT_COMMITTER_NAME: "tether",
  GIT_COMMITTER_EMAIL: "tether@localhost",
  GIT_COMMITTER_DATE: "@0 +0000",
};

/**
 * Write the seed commit of a state and anchor it.
 *
 * @param top A directory in the repository.
 * @param state The state to record.
 * @returns The seed commit's full id.
 * @throws {GitError} when git fails.
 */
export async function writeSeed(top: string, state: TreeState): Promise<string> {
  const opts = { cwd: top, env: FIXED_IDENTITY };
  const indexCommit = await gitText(
    ["commit-tree", "-p", state.head, "-m", INDEX_MESSAGE, "--end-of-options", state.index],
    opts,
  );
  const seed = await gitText(
    [
      "commit-tree",
      "-p",
      state.head,
      "-p",
      indexCommit,
      "-m",
      WORKTREE_MESSAGE,
      "--end-of-options",
      state.worktree,
    ],
    opts,
  );
  // The reflog dates the anchor (the seed's own date is fixed): `prune-seeds` reads it.
  await runGit(
    ["update-ref", "--create-reflog", "-m", "tether seed", `${SEED_REF_PREFIX}${seed}`, seed],
    { cwd: top, env: NO_REPLACE },
  );
  return seed;
}

/**
 * The id git gives an object of this type and content, computed here.
 *
 * @example The empty blob
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(await objectId("blob", new Uint8Array(), "sha1"), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
 * ```
 * @param type `blob`, `tree`, `commit` or `tag`.
 * @param content The object's bytes.
 * @param format The repository's object format.
 * @returns The full lowercase hex id.
 */
export async function objectId(
  type: string,
  content: Uint8Array,
  format: ObjectFormat,
): Promise<string> {
  const header = new TextEncoder().encode(`${type} ${content.length}\0`);
  const bytes = new Uint8Array(header.length + content.length);
  bytes.set(header);
  bytes.set(content, header.length);
  const digest = await crypto.subtle.digest(format === "sha1" ? "SHA-1" : "SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Read a commit object whose bytes hash to its id (a replaced or rewritten object is
 * refused), returning its tree and parents.
 *
 * @param top A directory in the repository.
 * @param oid The commit's full id.
 * @param format The repository's object format.
 * @returns The tree id and the parent ids, in order.
 * @throws {GitError} when the object is missing, not a commit, or does not hash to `oid`.
 */
export async function readVerifiedCommit(
  top: string,
  oid: string,
  format: ObjectFormat,
): Promise<{ tree: string; parents: string[] }> {
  if (!isFullOid(oid, format)) throw new GitError("failed", `Not a full object id: "${oid}"`);
  const { stdout } = await runGit(["cat-file", "commit", oid], {
    cwd: top,
    env: NO_REPLACE, // GUARD:seed-no-replace
  });
  if (await objectId("commit", stdout, format) !== oid) { // GUARD:seed-hash
    throw new GitError("failed", `Object ${oid} does not hash to its name: refusing it`);
  }
  const text = new TextDecoder().decode(stdout);
  const headers = text.slice(0, text.indexOf("\n\n") === -1 ? text.length : text.indexOf("\n\n"))
    .split("\n");
  const tree = headers.find((line) => line.startsWith("tree "))?.slice(5) ?? "";
  const parents = headers.filter((line) => line.startsWith("parent ")).map((l) => l.slice(7));
  return { tree, parents };
}

/**
 * The bytes `git commit-tree` writes, with git's default commit encoding, for a commit of
 * {@linkcode FIXED_IDENTITY}: a seed's two commits, and the land record a kept land writes.
 *
 * @example A commit's bytes name it: the same inputs, the same id
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const text = new TextDecoder().decode(fixedCommitBytes("a".repeat(40), ["b".repeat(40)], "m"));
 * assertEquals(text.split("\n").slice(0, 2), [`tree ${"a".repeat(40)}`, `parent ${"b".repeat(40)}`]);
 * ```
 * @param tree The tree id.
 * @param parents The parent ids.
 * @param message The one-line message.
 * @returns The commit object's content.
 */
export function fixedCommitBytes(tree: string, parents: string[], message: string): Uint8Array {
  const lines = [
    `tree ${tree}`,
    ...parents.map((p) => `parent ${p}`),
    `author ${IDENTITY_LINE}`,
    `committer ${IDENTITY_LINE}`,
    "",
    message,
    "",
  ];
  return new TextEncoder().encode(lines.join("\n"));
}

/**
 * Read a seed back as the state it records, checking every object against its id and
 * both commits against the exact bytes {@linkcode writeSeed} writes (so a commit merely
 * shaped like a seed, such as a merge, is refused).
 *
 * @param top A directory in the repository.
 * @param seed The seed commit's full id.
 * @param format The repository's object format.
 * @returns The recorded state.
 * @throws {GitError} when the seed is missing, forged or not shaped as a seed.
 */
export async function readSeed(
  top: string,
  seed: string,
  format: ObjectFormat,
): Promise<TreeState> {
  const outer = await readVerifiedCommit(top, seed, format);
  const [head, indexCommit] = outer.parents;
  if (outer.parents.length !== 2 || head === undefined || indexCommit === undefined) {
    throw new GitError("failed", `Commit ${seed} is not a tether seed`);
  }
  const inner = await readVerifiedCommit(top, indexCommit, format);
  const canonical = await objectId(
        "commit",
        fixedCommitBytes(outer.tree, [head, indexCommit], WORKTREE_MESSAGE),
        format,
      ) === seed && await objectId(
        "commit",
        fixedCommitBytes(inner.tree, [head], INDEX_MESSAGE),
        format,
      ) === indexCommit;
  if (inner.parents.length !== 1 || inner.parents[0] !== head || !canonical) { // GUARD:seed-shape
    throw new GitError("failed", `Commit ${seed} is not a tether seed`);
  }
  return { head, index: inner.tree, worktree: outer.tree };
}

/**
 * The id of a seed's index commit (its second parent, whose tree is the index), computed
 * without reading or writing anything.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const state = { head: "a".repeat(40), index: "b".repeat(40), worktree: "c".repeat(40) };
 * assertEquals((await seedIndexCommit(state, "sha1")).length, 40);
 * ```
 * @param state The state.
 * @param format The repository's object format.
 * @returns The index commit's id.
 */
export async function seedIndexCommit(state: TreeState, format: ObjectFormat): Promise<string> {
  return await objectId(
    "commit",
    fixedCommitBytes(state.index, [state.head], INDEX_MESSAGE),
    format,
  );
}

/**
 * The id {@linkcode writeSeed} gives a state, computed without writing anything (with
 * git's default commit encoding): how `verify` names the state it observes.
 *
 * @example The same state always has the same id
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const state = { head: "a".repeat(40), index: "b".repeat(40), worktree: "c".repeat(40) };
 * assertEquals(await seedId(state, "sha1"), await seedId({ ...state }, "sha1"));
 * ```
 * @param state The state.
 * @param format The repository's object format.
 * @returns The seed commit's id.
 */
export async function seedId(state: TreeState, format: ObjectFormat): Promise<string> {
  const indexCommit = await seedIndexCommit(state, format);
  return await objectId(
    "commit",
    fixedCommitBytes(state.worktree, [state.head, indexCommit], WORKTREE_MESSAGE),
    format,
  );
}
