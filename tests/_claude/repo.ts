/**
 * The scenario repository: a parent whose work is ahead of `origin` in every way
 * (a commit not pushed, staged, unstaged, untracked), so a child that starts from `origin`
 * visibly misses all of it.
 *
 * @module
 */
import { join } from "../../src/_path.ts";
import { git, writeFiles } from "../_helpers.ts";

/** What the parent holds that `origin` does not, by kind: path → content. */
export const PARENT_WORK = {
  /** In the local commit ahead of origin. */
  ahead: { "ahead.txt": "committed locally, not pushed\n" },
  /** Staged, not committed. */
  staged: { "staged.txt": "staged\n" },
  /** A tracked file changed in the worktree only. */
  unstaged: { "tracked.txt": "tracked, then edited\n" },
  /** Not known to git. */
  untracked: { "untracked.txt": "untracked\n" },
  /** Ignored by the committed `.gitignore`. */
  ignored: { "secret.env": "TOKEN=ignored\n" },
} as const;

/** The scenario: paths and commits. */
export interface ScenarioRepo {
  /** The temp directory holding everything; `cleanup` removes it. */
  root: string;
  /** The bare `origin`. */
  origin: string;
  /** The parent's clone (its main worktree, branch `main`). */
  repo: string;
  /** A directory for anything else a test needs (hook scripts, logs, outside worktrees). */
  scratch: string;
  /** The commit `origin/main` points at. */
  originHead: string;
  /** The parent's HEAD: one commit ahead of `originHead`. */
  head: string;
  /** Remove `root` and everything in it (worktrees registered in `repo` included). */
  cleanup: () => Promise<void>;
}

/**
 * Build the scenario in a new temp dir: a bare `origin` (default branch `main`), a clone with
 * two commits pushed (the second may carry the caller's `files`, such as
 * `.claude/settings.json`), one commit ahead of origin, then staged, unstaged, untracked and
 * ignored work ({@linkcode PARENT_WORK}). The clone has a local identity, so a child in any
 * of its worktrees can commit under a fresh HOME.
 *
 * @param options `files` (path → content) for the last pushed commit.
 * @returns Paths and commits; call `cleanup` in `finally`.
 * @example The parent is ahead of origin
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * import { git } from "../_helpers.ts";
 * const scenario = await scenarioRepo();
 * try {
 *   assertEquals(await git(scenario.repo, ["rev-parse", "HEAD~1"]), scenario.originHead);
 *   assertEquals(await git(scenario.origin, ["rev-parse", "main"]), scenario.originHead);
 * } finally {
 *   await scenario.cleanup();
 * }
 * ```
 */
export async function scenarioRepo(
  options: { files?: Record<string, string> } = {},
): Promise<ScenarioRepo> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-cc-scenario-" }));
  const cleanup = () => Deno.remove(root, { recursive: true }).catch(() => {});
  try {
    const origin = join(root, "origin.git");
    const repo = join(root, "repo");
    const scratch = join(root, "scratch");
    await Deno.mkdir(scratch);
    await git(root, ["init", "-q", "--bare", "-b", "main", origin]);
    await git(root, ["clone", "-q", origin, repo]);
    const config = {
      "user.name": "Fixture",
      "user.email": "fixture@example.invalid",
      "commit.gpgsign": "false",
    };
    for (const [key, value] of Object.entries(config)) await git(repo, ["config", key, value]);
    await git(repo, ["symbolic-ref", "HEAD", "refs/heads/main"]);
    await writeFiles(repo, {
      "README.md": "# scenario\n",
      "tracked.txt": "tracked\n",
      ".gitignore": "*.env\n",
    });
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "base"]);
    await writeFiles(repo, { "second.txt": "pushed\n", ...options.files });
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "pushed"]);
    await git(repo, ["push", "-q", "-u", "origin", "main"]);
    await git(repo, ["remote", "set-head", "origin", "main"]);
    const originHead = await git(repo, ["rev-parse", "HEAD"]);
    await writeFiles(repo, PARENT_WORK.ahead);
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "ahead of origin"]);
    const head = await git(repo, ["rev-parse", "HEAD"]);
    await writeFiles(repo, PARENT_WORK.staged);
    await git(repo, ["add", ...Object.keys(PARENT_WORK.staged)]);
    await writeFiles(repo, {
      ...PARENT_WORK.unstaged,
      ...PARENT_WORK.untracked,
      ...PARENT_WORK.ignored,
    });
    return { root, origin, repo, scratch, originHead, head, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
