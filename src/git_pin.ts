/**
 * The repository a run pinned at its start: every later git call of the run names it
 * (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR`), whatever a running child writes into the
 * shared `.git` meanwhile (see `repo_pin.ts`).
 *
 * @module
 */

/** What {@linkcode pinnedEnv} reads of a call's options. */
export interface PinnedCall {
  cwd?: string;
  env?: Record<string, string>;
  ownRepository?: boolean;
  cleanEnv?: boolean;
}

/**
 * A repository a run resolved once at its start, where every later git call is pinned
 * (see {@linkcode pinRepository}).
 */
export interface RepositoryPin {
  /** The work tree's top level (absolute, as git printed it). */
  top: string;
  /** Its git directory (absolute): the common dir, or `<common>/worktrees/<id>`. */
  gitDir: string;
  /** The common git directory (absolute). */
  commonDir: string;
}

/** The repository this process is pinned to, if any. */
let pin: RepositoryPin | undefined;

/**
 * Pin every later git call of this process to a repository (or unpin with `undefined`).
 * A call that runs at the pinned top level, or with no `cwd`, then gets `GIT_DIR`,
 * `GIT_WORK_TREE` and `GIT_COMMON_DIR` explicitly, so nothing written into the shared
 * `.git` while the run goes on (a `core.worktree`, a `commondir` file, a rewritten `.git`
 * file) moves its work tree, configuration or objects elsewhere. A call that names its own
 * git directory of this repository (`env.GIT_DIR`: a linked worktree's) gets the pinned
 * `GIT_COMMON_DIR`; a call elsewhere, with `cleanEnv` or with `ownRepository`, is left to
 * find its repository itself. git's ref store still reads a `commondir` file whatever
 * `GIT_COMMON_DIR` says: `src/repo_pin.ts` checks for one.
 *
 * @param repository The repository, or undefined.
 */
export function pinRepository(repository: RepositoryPin | undefined): void {
  pin = repository;
}

/**
 * The repository this process is pinned to.
 *
 * @returns The pin, or undefined.
 */
export function repositoryPin(): RepositoryPin | undefined {
  return pin;
}

/**
 * What the pin adds to one call's environment (only keys the call does not set).
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const at = { top: "/p", gitDir: "/p/.git", commonDir: "/p/.git" };
 * assertEquals(pinnedEnv(at, { cwd: "/p" }), {
 *   GIT_DIR: "/p/.git", GIT_WORK_TREE: "/p", GIT_COMMON_DIR: "/p/.git",
 * });
 * assertEquals(pinnedEnv(at, { env: { GIT_DIR: "/p/.git/worktrees/c" } }), { GIT_COMMON_DIR: "/p/.git" });
 * assertEquals(pinnedEnv(at, { cwd: "/elsewhere" }), {});
 * assertEquals(pinnedEnv(undefined, {}), {});
 * ```
 * @param repository The pin, if any.
 * @param options The call's options.
 * @returns The variables to add.
 */
export function pinnedEnv(
  repository: RepositoryPin | undefined,
  options: PinnedCall,
): Record<string, string> {
  if (repository === undefined || options.ownRepository || options.cleanEnv) return {};
  const env = options.env ?? {};
  const common = env.GIT_COMMON_DIR === undefined ? { GIT_COMMON_DIR: repository.commonDir } : {};
  const own = env.GIT_DIR ?? env.GIT_WORK_TREE;
  if (own !== undefined) {
    const here = env.GIT_DIR === repository.gitDir ||
      env.GIT_DIR?.startsWith(`${repository.commonDir}/worktrees/`) === true;
    return here ? common : {};
  }
  if (options.cwd !== undefined && options.cwd !== repository.top) return {};
  return { GIT_DIR: repository.gitDir, GIT_WORK_TREE: repository.top, ...common }; // tether:guard pin-env
}
