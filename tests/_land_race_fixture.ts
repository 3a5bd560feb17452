/**
 * Fixtures of the tests that race a land (tests/land_pinned_repository_test.ts,
 * land_symlinks_test.ts, land_readback_undo_test.ts, land_submodules_and_failures_test.ts,
 * land_checkout_died_test.ts, worktree_user_ignore_test.ts): a committed parent and a
 * directory for its children, spawning one child, a result claiming files, a land through
 * the real `gate` binary, and a git shim that does what a child's watcher would do at one
 * exact call of the land (so each race is won every time, not by luck).
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { bin, git, gitShim, makeRepo, type Run, tempDir } from "./_helpers.ts";
import { type Family, removeWorktrees } from "./_worktree_fixture.ts";

/** Ten lines, LF-ended. */
export const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/**
 * A committed parent with `files` (f.txt of ten lines by default), a directory for
 * children, and `undo` steps run before the clean-up (to take back what a test planted in
 * the parent's `.git`, so git can remove the worktrees again).
 */
export async function family(
  files: Record<string, string> = { "f.txt": TEN },
): Promise<Family & { undo: (() => Promise<unknown>)[] }> {
  const parent = await makeRepo({ files });
  const kids = await tempDir("tether-kids-");
  const undo: (() => Promise<unknown>)[] = [];
  return {
    parent,
    kids,
    undo,
    cleanup: async () => {
      try {
        for (const step of undo) await step().catch(() => {});
        await removeWorktrees(parent);
      } finally {
        await Deno.remove(parent, { recursive: true }).catch(() => {});
        await Deno.remove(kids, { recursive: true }).catch(() => {});
      }
    },
  };
}

/**
 * Spawn one child of the repository at `from` (default the parent) at `<kids>/<name>`.
 *
 * @returns Its path and seed.
 */
export async function spawn(f: Family, name: string, from = f.parent): Promise<[string, string]> {
  const r = await bin("handshake", ["--worktree", join(f.kids, name), "--json"], { cwd: from });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return [doc.worktrees[0].path, doc.seed];
}

/** A SubagentResult claiming `files`, with file evidence for the first. */
export function result(...files: string[]): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "file", ref: files[0], ok: true }],
  });
}

/** Options of {@linkcode land}. */
export interface LandOptions {
  /** Extra environment (a shim's PATH). */
  env?: Record<string, string>;
  /** Where gate runs (default the parent). */
  cwd?: string;
  /** Extra arguments (`--keep`, `--landed ID`). */
  args?: string[];
}

/** `gate --worktree DIR --seed SEED --land` in the parent, the result claiming `claims`. */
export function land(
  f: Family,
  dir: string,
  seed: string,
  claims: string[],
  options: LandOptions = {},
): Promise<Run> {
  return bin("gate", ["--worktree", dir, "--seed", seed, "--land", ...(options.args ?? [])], {
    cwd: options.cwd ?? f.parent,
    stdin: result(...claims),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}

/**
 * A git first on PATH that runs `before` (shell code, in gate's directory: the parent's
 * top level) when the land's call whose arguments contain ` <call> ` starts, then that call,
 * then `after`, and exits with the call's code. `$REAL` is the real git.
 *
 * @returns The shim's directory (remove it afterwards) and the environment that selects it.
 */
export function raceAt(
  call: string,
  before: string,
  after = "",
): Promise<{ dir: string; env: Record<string, string> }> {
  return gitShim(`case " $* " in
  *" ${call} "*) ${before || ":"}; "$REAL" "$@"; rc=$?; ${after || ":"}; exit $rc ;;
esac`);
}

/** Whether a path exists (a dangling link counts). */
export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** The refs under `refs/tether/landed/` (land records' anchors). */
export async function recordRefs(repo: string): Promise<string> {
  return await git(repo, ["for-each-ref", "--format=%(refname)", "refs/tether/landed/"]);
}

/** A file's text. */
export const text = (dir: string, path: string): Promise<string> =>
  Deno.readTextFile(join(dir, path));
