/**
 * Where a run's repository is, resolved once at its start, and whether it still is. A child
 * agent in a linked worktree can write anything in the shared `.git` at any moment: a
 * `core.worktree` in the config (the work tree moves), a `commondir` file in a git dir (the
 * objects, refs and config move to another repository), or a rewritten `.git` file. So a
 * run resolves the repository once, refuses a layout no repository has by itself, pins
 * every later git call to it ({@linkcode pinRepository}: `GIT_DIR`, `GIT_WORK_TREE`,
 * `GIT_COMMON_DIR`), and asks again, without the pin, before and after it writes: git's
 * ref store reads a `commondir` file whatever `GIT_COMMON_DIR` says, so a change there is
 * caught, not pinned away.
 *
 * @module
 */

import { runGit } from "./git.ts";
import { decodePath } from "./paths.ts";
import { quoteLine } from "./show.ts";
import { pinRepository, type RepositoryPin } from "./git_pin.ts";
import { GitError } from "./git_error.ts";

const LOCATION = [
  "rev-parse",
  "--path-format=absolute",
  "--show-toplevel",
  "--absolute-git-dir",
  "--git-common-dir",
];

/**
 * Why a repository as git found it is not one tether pins to, or undefined: the directory
 * git ran in is not inside the work tree git names (a `core.worktree` pointing elsewhere),
 * or the git dir names a common dir it is not a worktree of (a `commondir` file in a main
 * git dir). The git dir of a linked worktree is `<common>/worktrees/<id>`; any other is
 * its own common dir.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const main = { top: "/p", gitDir: "/p/.git", commonDir: "/p/.git" };
 * assertEquals(pinProblem(main, true), undefined);
 * assertEquals(pinProblem({ top: "/w", gitDir: "/p/.git/worktrees/w", commonDir: "/p/.git" }, true), undefined);
 * assertEquals(typeof pinProblem({ ...main, commonDir: "/evil" }, true), "string");
 * assertEquals(typeof pinProblem(main, false), "string");
 * ```
 * @param repo The repository as git reported it.
 * @param inside Whether the directory git ran in is inside its work tree.
 * @returns The reason, or undefined.
 */
export function pinProblem(repo: RepositoryPin, inside: boolean): string | undefined {
  const prefix = `${repo.commonDir}/worktrees/`;
  const id = repo.gitDir.startsWith(prefix) ? repo.gitDir.slice(prefix.length) : "";
  const linked = id !== "" && !id.includes("/");
  if (repo.gitDir !== repo.commonDir && !linked) { // tether:guard pin-commondir
    return `the git dir ${quoteLine(repo.gitDir)} names the common dir ${
      quoteLine(repo.commonDir)
    } without being one of its worktrees' (a commondir file in a main git dir, written by a child?): git would read another repository's objects, refs and config`;
  }
  if (!inside) { // tether:guard pin-inside
    return `this directory is not inside the work tree git names, ${
      quoteLine(repo.top)
    } (a core.worktree in the shared config, written by a child?)`;
  }
  return undefined;
}

/** The lines of a location reading, each decoded exactly. */
function locationLines(stdout: Uint8Array): string[] {
  return decodePath(stdout).replace(/\n$/, "").split("\n");
}

/**
 * Resolve the repository around the current directory (or `cwd`), refuse one
 * {@linkcode pinProblem} names, and pin every later git call to it.
 *
 * @param cwd A directory in the work tree (default: the current directory).
 * @returns The pinned repository.
 * @throws {GitError} when git fails (not a repository: `not-a-repository`) or the
 *   repository is refused.
 */
export async function pinHere(cwd?: string): Promise<RepositoryPin> {
  pinRepository(undefined);
  const r = await runGit([...LOCATION, "--is-inside-work-tree"], {
    ...(cwd === undefined ? {} : { cwd }),
    parse: true,
  });
  const [top = "", gitDir = "", commonDir = "", inside = "", ...rest] = locationLines(r.stdout);
  if (!top || !gitDir || !commonDir || rest.length > 0) {
    throw new GitError("failed", "Cannot read the top level and git dirs (a newline in a path?)");
  }
  const repo = { top, gitDir, commonDir };
  const problem = pinProblem(repo, inside === "true");
  if (problem !== undefined) throw new GitError("failed", problem);
  pinRepository(repo);
  return repo;
}

/**
 * Whether git run at the pinned top level, finding the repository itself, still finds the
 * pinned one: a `core.worktree`, a `commondir` file or a `.git` file written since the pin
 * would move the user's own git (and git's ref store, even under the pin).
 *
 * @param repo The pinned repository.
 * @returns What git finds now, when it is not the pinned repository; undefined when it is.
 * @throws {GitError} when git cannot be started.
 */
export async function repositoryMoved(repo: RepositoryPin): Promise<string | undefined> {
  const r = await runGit(LOCATION, {
    cwd: repo.top,
    parse: true,
    allowFailure: true,
    ownRepository: true, // tether:guard pin-probe-own
  });
  const [top = "", gitDir = "", commonDir = ""] = locationLines(r.stdout);
  if (
    r.code === 0 && top === repo.top && gitDir === repo.gitDir && commonDir === repo.commonDir
  ) return undefined;
  const found = r.code === 0
    ? `the work tree ${quoteLine(top)}, git dir ${quoteLine(gitDir)} and common dir ${
      quoteLine(commonDir)
    }`
    : `no repository (${r.stderr.trim().split("\n").at(-1) ?? `exit ${r.code}`})`;
  return `git run in ${quoteLine(repo.top)} now finds ${found} (the run started with the git dir ${
    quoteLine(repo.gitDir)
  } and common dir ${
    quoteLine(repo.commonDir)
  }: a core.worktree, a commondir file or a .git file was written meanwhile)`;
}
