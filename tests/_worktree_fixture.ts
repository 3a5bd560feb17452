/**
 * Fixtures for worktree-mode tests: a parent repository (with every kind of uncommitted
 * work, or committed files only), a cleanup that removes every worktree, branch and spawn
 * ref a test made, and the spawn, gate and land of children through the real binaries.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, makeRepo, type Run, tempDir, writeFiles } from "./_helpers.ts";

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
  assertEquals(left.split("\n").filter((l) => l.startsWith("worktree ")).length, 1);
  assertEquals(await git(repo, ["branch", "--list", "tether/*"]), "");
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
  return await withKids(parent, false);
}

/**
 * A family of `parent` and a new directory for its children.
 *
 * @param parent The parent repository.
 * @param tolerant Whether `cleanup` ignores a directory already gone.
 * @returns The family.
 */
async function withKids(parent: string, tolerant: boolean): Promise<Family> {
  const kids = await tempDir("tether-kids-");
  const remove = (dir: string) => {
    const removed = Deno.remove(dir, { recursive: true });
    return tolerant ? removed.catch(() => {}) : removed;
  };
  return {
    parent,
    kids,
    cleanup: async () => {
      try {
        await removeWorktrees(parent);
      } finally {
        await remove(parent);
        await remove(kids);
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

/** Ten lines, `line 1` to `line 10`. */
export const TEN: string = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") +
  "\n";

/**
 * A parent repository whose one commit holds `files`, and a directory for its children.
 *
 * @param files path → content of the parent's commit.
 * @returns The family; call `cleanup` in `finally` (every worktree, `tether/*` branch and
 *   spawn ref, then both directories).
 */
export async function committedFamily(files: Record<string, string>): Promise<Family> {
  return await withKids(await makeRepo({ files }), true);
}

/**
 * Spawn children at `<kids>/<name>` with `handshake --worktree … --json` in the parent.
 *
 * @param f The family.
 * @param name The worktree directory's name.
 * @param count `--count`; not passed when undefined (one child).
 * @returns The children's paths and the seed.
 */
export async function spawnChildren(
  f: Family,
  name: string,
  count?: number,
): Promise<[string[], string]> {
  const r = await bin("handshake", [
    "--worktree",
    join(f.kids, name),
    ...(count === undefined ? [] : ["--count", String(count)]),
    "--json",
  ], { cwd: f.parent });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return [doc.worktrees.map((w: { path: string }) => w.path), doc.seed];
}

/**
 * Spawn one child at `<kids>/<name>`.
 *
 * @param f The family.
 * @param name The worktree directory's name.
 * @returns The child's path and the seed.
 */
export async function spawnChild(f: Family, name: string): Promise<[string, string]> {
  const [[path], seed] = await spawnChildren(f, name);
  return [path!, seed];
}

/**
 * Spawn one child at `<kids>/<name>` and run its Step 0 there: `verify` in the child, given
 * the block the parent printed, must match (exit 0).
 *
 * @param f The family.
 * @param name The worktree directory's name.
 * @returns The child's path and the seed.
 */
export async function spawnVerified(f: Family, name: string): Promise<[string, string]> {
  const r = await bin("handshake", ["--worktree", join(f.kids, name), "--json"], {
    cwd: f.parent,
  });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  const child: string = doc.worktrees[0].path;
  const verified = await bin("verify", [], { cwd: child, stdin: doc.block });
  assertEquals(verified.code, 0, verified.stdout + verified.stderr);
  return [child, doc.seed];
}

/**
 * A child's result: done, claiming `files`, with file evidence at the first.
 *
 * @param files `files_changed`.
 * @returns The JSON text.
 */
export function claimResult(...files: string[]): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "file", ref: files[0], ok: true }],
  });
}

/**
 * `gate --worktree DIR --seed SEED …more` in the parent.
 *
 * @param f The family.
 * @param dir The child's worktree.
 * @param seed The seed the parent gives.
 * @param stdin The child's result.
 * @param more More arguments (`--land`, `--json`, …).
 * @returns Exit code and output.
 */
export function gateChild(
  f: Family,
  dir: string,
  seed: string,
  stdin: string,
  ...more: string[]
): Promise<Run> {
  return bin("gate", ["--worktree", dir, "--seed", seed, ...more], { cwd: f.parent, stdin });
}

/**
 * `gate --worktree DIR --seed SEED --land` in the parent, the child claiming `claims`.
 *
 * @param f The family.
 * @param dir The child's worktree.
 * @param seed The seed the parent gives.
 * @param claims The paths the child claims ({@linkcode claimResult}).
 * @param env Added to gate's environment (say, the `PATH` of a `gitShim` of tests/_helpers.ts).
 * @returns Exit code and output.
 */
export function landChild(
  f: Family,
  dir: string,
  seed: string,
  claims: string[],
  env?: Record<string, string>,
): Promise<Run> {
  return bin("gate", ["--worktree", dir, "--seed", seed, "--land"], {
    cwd: f.parent,
    stdin: claimResult(...claims),
    ...(env === undefined ? {} : { env }),
  });
}

/**
 * A file's text.
 *
 * @param dir A directory.
 * @param path The file, relative to it.
 * @returns Its text.
 */
export function text(dir: string, path: string): Promise<string> {
  return Deno.readTextFile(join(dir, path));
}

/**
 * Whether anything (a dangling link included) is at `path`.
 *
 * @param path A path.
 * @returns `lstat` found it.
 */
export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/**
 * A worktree's shared git directory, as an absolute path.
 *
 * @param dir The worktree.
 * @returns The common dir.
 */
export async function commonDir(dir: string): Promise<string> {
  return await git(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
}

/**
 * Write `<common dir>/info/attributes` as a child can.
 *
 * @param dir A worktree of the repository.
 * @param lines The file's text.
 */
export async function plantAttributes(dir: string, lines: string): Promise<void> {
  const common = await commonDir(dir);
  await Deno.mkdir(join(common, "info"), { recursive: true });
  await Deno.writeTextFile(join(common, "info", "attributes"), lines);
}

/**
 * Set a key in the shared config as a child can.
 *
 * @param dir A worktree of the repository.
 * @param key The config key.
 * @param value Its value.
 */
export async function plantConfig(dir: string, key: string, value: string): Promise<void> {
  await git(dir, ["config", "--file", join(await commonDir(dir), "config"), key, value]);
}

/**
 * The id a kept land printed as its land record.
 *
 * @param stdout The land's output.
 * @returns The record id.
 */
export function recordId(stdout: string): string {
  const id = /^land record: ([0-9a-f]+) /m.exec(stdout)?.[1];
  assertOk(id !== undefined, stdout);
  return id!;
}
