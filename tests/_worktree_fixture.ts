/**
 * Fixtures for worktree-mode tests: a parent repository with every kind of uncommitted
 * work, and a cleanup that removes every worktree, branch and spawn ref a test made.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { commitAll, git, makeRepo, tempDir, writeFiles } from "./_helpers.ts";

/** A parent repository and a directory for its children, both removed by `cleanup`. */
export interface Family {
  parent: string;
  kids: string;
  cleanup: () => Promise<void>;
}

/** The binary file the fixture carries (every byte value, NUL and CR included). */
export const BINARY: Uint8Array = Uint8Array.from({ length: 256 }, (_, i) => i);

/** Paths whose bytes a spawn must carry exactly (untracked, modified, staged, odd). */
export const CARRIED = [
  "a.txt",
  "staged.txt",
  "crlf.txt",
  "bin.dat",
  "new.txt",
  "new.bin",
  "dir with space/ünï\tcode.txt",
  "sub/inner.txt",
];

/**
 * The linked worktrees of a repository (the main one left out).
 *
 * @param repo The main worktree.
 * @returns Their paths.
 */
export async function linkedWorktrees(repo: string): Promise<string[]> {
  const list = await git(repo, ["worktree", "list", "--porcelain", "-z"]);
  return list.split("\0").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9))
    .slice(1);
}

/**
 * Remove every linked worktree of a repository, its `tether/*` branches and
 * `refs/tether/spawned/*` refs, and check that none is left.
 *
 * @param repo The main worktree.
 */
export async function removeWorktrees(repo: string): Promise<void> {
  const list = await git(repo, ["worktree", "list", "--porcelain", "-z"]);
  const paths = list.split("\0").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9));
  for (const path of paths.slice(1)) {
    await git(repo, ["worktree", "remove", "--force", "--force", path]);
  }
  await git(repo, ["worktree", "prune"]);
  const refs = await git(repo, [
    "for-each-ref",
    "--format=%(refname)",
    "refs/heads/tether/",
    "refs/tether/spawned/",
  ]);
  for (const ref of refs.split("\n").filter(Boolean)) await git(repo, ["update-ref", "-d", ref]);
  const left = await git(repo, ["worktree", "list", "--porcelain"]);
  assert.equal(left.split("\n").filter((l) => l.startsWith("worktree ")).length, 1);
  assert.equal(await git(repo, ["branch", "--list", "tether/*"]), "");
}

/**
 * A parent with staged, unstaged and staged-then-edited changes, a staged deletion, an
 * unstaged deletion, untracked text and binary files, a CRLF file, odd paths, an ignored
 * secret and a stash entry.
 *
 * @param options `sha256` for a SHA-256 repository.
 * @returns The family; call `cleanup` in `finally`.
 */
export async function dirtyFamily(options: { sha256?: boolean } = {}): Promise<Family> {
  const parent = await makeRepo({
    files: {
      "a.txt": "a\n",
      "staged.txt": "s\n",
      "crlf.txt": "one\r\ntwo\r\n",
      "gone.txt": "g\n",
      "del.txt": "d\n",
      "sub/inner.txt": "i\n",
      ".gitignore": "*.env\n",
    },
    ...(options.sha256 ? { objectFormat: "sha256" as const } : {}),
  });
  await writeFiles(parent, { "stashed.txt": "x\n" });
  await git(parent, ["add", "stashed.txt"]);
  await git(parent, ["stash", "push", "-q", "-m", "parent's stash"]);
  await writeFiles(parent, { "bin.dat": BINARY });
  await commitAll(parent, "binary");
  await writeFiles(parent, {
    "a.txt": "a changed, unstaged\n",
    "staged.txt": "s staged\n",
    "crlf.txt": "one\r\ntwo changed\r\n",
    "bin.dat": BINARY.slice().reverse(),
  });
  await git(parent, ["add", "staged.txt", "crlf.txt"]);
  await writeFiles(parent, { "staged.txt": "s staged, then edited\n" });
  await git(parent, ["rm", "-q", "gone.txt"]);
  await Deno.remove(join(parent, "del.txt"));
  await writeFiles(parent, {
    "new.txt": "untracked\n",
    "new.bin": Uint8Array.from([0, 13, 10, 255, 0]),
    "dir with space/ünï\tcode.txt": "odd\n",
    "sub/inner.txt": "inner changed\n",
    "secret.env": "TOKEN=do-not-copy\n",
    "build/out.env": "ignored too\n",
  });
  const kids = await tempDir("tether-kids-");
  return {
    parent,
    kids,
    cleanup: async () => {
      try {
        await removeWorktrees(parent);
      } finally {
        await Deno.remove(parent, { recursive: true });
        await Deno.remove(kids, { recursive: true });
      }
    },
  };
}

/**
 * The facts of a worktree a test compares: HEAD, status, staged entries, stash.
 *
 * @param dir The worktree.
 * @returns Text facts.
 */
export async function treeFacts(dir: string): Promise<Record<string, string>> {
  return {
    head: await git(dir, ["rev-parse", "HEAD"]),
    status: await git(dir, ["status", "--porcelain", "-z"]),
    staged: await git(dir, ["ls-files", "-s", "-z"]),
    stash: await git(dir, ["stash", "list", "--format=%H %s"]),
  };
}
