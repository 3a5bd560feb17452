/**
 * The identity of a handoff artifact: a commit, a path in it, the path's object id and
 * the commit's tree id. Only ever called after the caller's right to inspect the commit
 * has been decided.
 *
 * @module
 */
import { runGit } from "../git.ts";
import type { At } from "./identity.ts";
import type { Artifact } from "./message.ts";
import { objectTypes } from "./history.ts";

const decoder = new TextDecoder();

/** A path's entry in a commit's tree, as `git ls-tree` lists it. */
export interface PathEntry {
  /** The mode, `100644`, `040000`, `160000` (a submodule entry, a gitlink). */
  mode: string;
  /** `blob`, `tree`, or `commit` for a gitlink. */
  type: string;
  /** The object id the tree records. */
  id: string;
}

/**
 * Look up a path at a commit without reading the file itself (works in a partial clone).
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param commit A full commit id the caller may inspect.
 * @param path A validated path.
 * @returns The path's entry, or undefined when the path does not exist there.
 * @throws {GitError} when git fails.
 */
export async function pathEntry(
  at: At,
  commit: string,
  path: string,
): Promise<PathEntry | undefined> {
  const result = await runGit(
    ["--literal-pathspecs", "ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--", path],
    { ...at, parse: true, allowFailure: true },
  );
  if (result.code !== 0) return undefined;
  for (const entry of decoder.decode(result.stdout).split("\0")) {
    const match = /^([0-7]+) ([a-z]+) ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match?.[1] && match[2] && match[3] && match[4] === path) {
      return { mode: match[1], type: match[2], id: match[3] };
    }
  }
  return undefined;
}

/**
 * Look up the object id of a path at a commit (see {@linkcode pathEntry}).
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param commit A full commit id the caller may inspect.
 * @param path A validated path.
 * @returns The path's object id, or undefined when the path does not exist there.
 * @throws {GitError} when git fails.
 */
export async function pathObject(
  at: At,
  commit: string,
  path: string,
): Promise<string | undefined> {
  return (await pathEntry(at, commit, path))?.id;
}

/**
 * Whether a tree entry names an object of this repository. A submodule entry (a gitlink,
 * mode `160000`) names a commit of another repository: its id is whatever the committer
 * wrote, possibly the hash of content guessed to be in another lane's objects, so it is
 * never looked up here (that would make coord an oracle for the existence of any object).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isLocalObject({ mode: "100644", type: "blob", id: "a".repeat(40) }), true);
 * assertEquals(isLocalObject({ mode: "160000", type: "commit", id: "a".repeat(40) }), false);
 * ```
 * @param entry The entry.
 * @returns False for a gitlink.
 */
export function isLocalObject(entry: PathEntry): boolean {
  return entry.mode !== "160000" && entry.type !== "commit";
}

/**
 * The tree id of a commit, through stdin (never an argument).
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param commit A full commit id.
 * @returns The tree id, or undefined when the commit is missing.
 * @throws {GitError} when git fails.
 */
export async function commitTree(at: At, commit: string): Promise<string | undefined> {
  const result = await runGit(["cat-file", "--batch-check=%(objectname)"], {
    ...at,
    parse: true,
    stdin: `${commit}^{tree}\n`,
  });
  const line = decoder.decode(result.stdout).trim();
  return /^[0-9a-f]+$/.test(line) ? line : undefined;
}

/** What re-resolving a handoff's artifact found. */
export interface ArtifactCheck {
  /** `ok`, `changed` (ids no longer match) or `gone` (objects missing). */
  status: "ok" | "changed" | "gone";
  /** Plain sentences saying what was found. */
  notes: string[];
}

/**
 * Re-resolve a stored artifact: does the commit exist, does its tree id and the path's
 * object id still match what was recorded, are the objects present?
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param artifact The recorded artifact.
 * @returns The verdict with plain notes.
 * @throws {GitError} when git fails.
 */
export async function checkArtifact(at: At, artifact: Artifact): Promise<ArtifactCheck> {
  const types = await objectTypes(at, [artifact.commit, artifact.tree]);
  if (types.get(artifact.commit) !== "commit") {
    return {
      status: "gone",
      notes: [
        `commit ${artifact.commit} is no longer in this repository (coord creates no refs; a commit no branch or tag reaches can be garbage-collected)`,
      ],
    };
  }
  const notes: string[] = [];
  let status: ArtifactCheck["status"] = "ok";
  const [tree, entry] = await Promise.all([
    commitTree(at, artifact.commit),
    pathEntry(at, artifact.commit, artifact.path),
  ]);
  if (tree === undefined || (tree === artifact.tree && types.get(tree) !== "tree")) {
    status = "gone";
    notes.push(`the commit's tree ${artifact.tree} is not in the local object store`);
  } else if (tree !== artifact.tree) {
    status = "changed";
    notes.push(`the commit's tree is now ${tree ?? "missing"}, recorded ${artifact.tree}`);
  }
  if (entry === undefined) {
    status = "changed";
    notes.push(`path "${artifact.path}" no longer resolves at ${artifact.commit}`);
  } else if (entry.id !== artifact.object) {
    status = "changed";
    notes.push(`path "${artifact.path}" is now ${entry.id}, recorded ${artifact.object}`);
  } else if (!isLocalObject(entry)) { // GUARD:gitlink-not-looked-up
    notes.push(
      `path "${artifact.path}" is a submodule entry: its commit belongs to another repository and is not looked up here`,
    );
  } else {
    const present = await objectTypes(at, [entry.id]);
    if (!present.has(entry.id)) {
      notes.push(
        `object ${entry.id} of "${artifact.path}" is not in the local object store (gone, or not fetched in this partial clone)`,
      );
      if (status === "ok") status = "gone";
    }
  }
  if (status === "ok") notes.push("commit, tree and path resolve to the recorded ids");
  return { status, notes };
}
