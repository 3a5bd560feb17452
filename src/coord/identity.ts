/**
 * The repository as `coord` sees it at the start of every command: the worktree that
 * contains the current directory, the shared common dir, the object format, today's
 * policy from the policy ref, and which lane each worktree is. Identity comes only from
 * the worktree; there is no flag or variable that sets it.
 *
 * @module
 */
import { join, resolve } from "../_path.ts";
import { gitText, runGit } from "../git.ts";
import { PolicyError, RefusedError } from "./errors.ts";
import { DEFAULT_POLICY_REF, isPolicyRef, parsePolicy, type Policy, PRIMARY } from "./policy.ts";
import {
  discoverWorktree,
  gitDirOf,
  parseWorktreeList,
  readWorktreeAdminNames,
  realOr,
} from "./worktree.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** Where and how every git call of a command runs: the caller's directory, and the caller's own worktree and git dirs pinned in the environment. */
export interface At {
  /** The caller's directory. */
  cwd: string;
  /** `GIT_DIR`, `GIT_WORK_TREE`, `GIT_COMMON_DIR` of the caller's worktree, and {@linkcode historyEnv}. */
  env: Record<string, string>;
}

/**
 * A path no file can ever have (a directory entry below `/dev/null`): git reads it as a
 * missing grafts or shallow file without a warning.
 */
export const NO_FILE: string = Deno.build.os === "windows"
  ? "\\\\.\\NUL\\coord-none"
  : "/dev/null/coord-none";

/**
 * Environment for every git call of coord that overrides what the caller's environment
 * could use to rewrite history or its output: replace refs, grafts (`GIT_GRAFT_FILE` and
 * `info/grafts`), shallow files (`GIT_SHALLOW_FILE` and `shallow`), configuration passed
 * through the environment (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT`, for example
 * `i18n.logOutputEncoding`) and pathspec magic. Passing an environment to a child needs
 * no permission; coord never reads its own.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(historyEnv().GIT_NO_REPLACE_OBJECTS, "1");
 * assertEquals(historyEnv().GIT_CONFIG_COUNT, "0");
 * ```
 * @returns Variable → value.
 */
export function historyEnv(): Record<string, string> {
  return {
    // A `git replace` ref must not change the policy, an artifact or its history.
    GIT_NO_REPLACE_OBJECTS: "1",
    // Grafts and shallow boundaries would cut parents out of a history.
    GIT_GRAFT_FILE: NO_FILE,
    GIT_SHALLOW_FILE: NO_FILE,
    // Configuration from the environment (the `-c` options coord passes still apply).
    GIT_CONFIG_PARAMETERS: "",
    GIT_CONFIG_COUNT: "0",
    GIT_GLOB_PATHSPECS: "0",
    GIT_NOGLOB_PATHSPECS: "0",
    GIT_ICASE_PATHSPECS: "0",
  };
}

/** A lane whose worktree exists. */
export interface LaneWorktree {
  /** The lane name. */
  lane: string;
  /** The worktree's real path. */
  path: string;
  /** The reflog that records this worktree's HEAD (`main-worktree/HEAD`, `worktrees/<id>/HEAD`). */
  reflog: string;
}

/** Everything a command needs to know before it touches the store. */
export interface Repo {
  /** The caller's directory. */
  cwd: string;
  /** Options for every git call of this command. */
  at: At;
  /** The caller's worktree top level. */
  toplevel: string;
  /** The shared git common dir (absolute). */
  commonDir: string;
  /** `sha1` or `sha256`. */
  format: ObjectFormat;
  /** The ref whose `STATUS` is the policy. */
  policyRef: string;
  /** Today's policy. */
  policy: Policy;
  /** Lanes with an existing worktree. */
  worktrees: LaneWorktree[];
  /**
   * HEAD reflogs of worktrees that are no lane's (one moved away from its lane's path, or
   * never declared): what they record belongs to nobody a lane may read.
   */
  unownedReflogs: string[];
  /** The caller's lane. */
  lane: string;
}

const decoder = new TextDecoder();

/**
 * Open the repository around a directory and establish the caller's lane.
 *
 * @param cwd The caller's directory.
 * @returns The repository view.
 * @throws {GitError} when this is no repository or git fails.
 * @throws {PolicyError} when STATUS is missing or malformed.
 * @throws {RefusedError} when the caller's worktree is no lane.
 *
 * Kept whole: the lane is bound by one ordered series of checks over one reading of the
 * repository (policy, worktree list, admin dirs, each lane's `.git`); split, every step would
 * need the whole reading passed along and the order would no longer show.
 */
export async function openRepo(cwd: string): Promise<Repo> {
  const found = discoverWorktree(cwd);
  if (!found) throw new GitError("not-a-repository", `Not a git worktree: "${cwd}"`);
  const at: At = {
    cwd,
    env: {
      GIT_DIR: found.gitDir,
      GIT_WORK_TREE: found.top,
      GIT_COMMON_DIR: found.commonDir,
      ...historyEnv(),
    },
  };
  const [revParse, config, list] = await Promise.all([
    gitText([
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--git-common-dir",
      "--show-object-format",
    ], at),
    // `--file`, not `--local`: a `GIT_CONFIG` variable makes `--local` fail, which must not
    // fall back to the default policy ref.
    runGit(["config", "--file", join(found.commonDir, "config"), "--get", "coord.policyRef"], {
      ...at,
      allowFailure: true,
      parse: true,
    }),
    runGit(["worktree", "list", "--porcelain", "-z"], { ...at, parse: true }),
  ]);
  const [toplevel = "", commonDir = "", formatText = ""] = revParse.split("\n");
  const format: ObjectFormat = formatText === "sha256" ? "sha256" : "sha1";
  if (config.code !== 0 && config.code !== 1) {
    throw new PolicyError("Cannot read coord.policyRef from the repository's config");
  }
  const configured = decoder.decode(config.stdout).trim();
  const policyRef = config.code === 0 && configured !== "" ? configured : DEFAULT_POLICY_REF;
  if (!isPolicyRef(policyRef)) {
    throw new PolicyError(`Invalid coord.policyRef: "${policyRef}" (expected a ref under refs/)`);
  }
  const policy = parsePolicy(await readStatus(at, policyRef), format);

  const paths = parseWorktreeList(decoder.decode(list.stdout));
  const main = paths[0];
  if (main === undefined) throw new PolicyError("git lists no worktree");
  const admin = readWorktreeAdminNames(commonDir);
  const worktrees: LaneWorktree[] = [];
  const mainReal = realOr(main);
  const linked = paths.slice(1).map(realOr);
  // The git dir each lane's path names in its own `.git` (one direction of the binding;
  // the admin dir's `gitdir` file, which `admin` was read from, is the other).
  const claims = new Map<string, string | undefined>();
  for (const [lane, rel] of policy.lanes) {
    if (lane === PRIMARY) continue;
    const want = realOr(resolve(mainReal, rel));
    claims.set(want, gitDirOf(want));
  }
  const broken = new Set<string>();
  for (const [lane, rel] of policy.lanes) {
    if (lane === PRIMARY) {
      worktrees.push({ lane, path: mainReal, reflog: "main-worktree/HEAD" });
      continue;
    }
    const want = realOr(resolve(mainReal, rel));
    const path = linked.find((p) => p === want);
    const id = path === undefined ? undefined : admin.get(path);
    if (path !== undefined && id !== undefined) {
      if (!belongTogether(path, realOr(join(commonDir, "worktrees", id)), claims)) {
        // Fail closed: no lane is this worktree, and its admin dir's reflog is nobody's.
        broken.add(path);
        continue;
      }
      const twin = worktrees.find((w) => w.path === path);
      if (twin) {
        throw new PolicyError(`STATUS gives lanes "${twin.lane}" and "${lane}" the same worktree`);
      }
      worktrees.push({ lane, path, reflog: `worktrees/${id}/HEAD` });
    }
  }
  const laneReflogs = new Set(worktrees.map((w) => w.reflog));
  const unownedReflogs = [...admin.values()]
    .map((id) => `worktrees/${id}/HEAD`)
    .filter((reflog) => !laneReflogs.has(reflog));
  if (!laneReflogs.has("main-worktree/HEAD")) unownedReflogs.push("main-worktree/HEAD");
  const top = realOr(toplevel);
  const unbound = broken.has(top) || (claims.has(top) && !worktrees.some((w) => w.path === top));
  if (top === found.top && unbound) {
    throw new RefusedError(
      "refused: this worktree and its administrative directory do not belong together as git made them (each must name the other, and no other lane's worktree may name it)",
    );
  }
  const mine = top === found.top ? worktrees.find((w) => w.path === top) : undefined;
  const ownGitDir = mine === undefined
    ? undefined
    : mine.lane === PRIMARY
    ? realOr(commonDir)
    : realOr(join(commonDir, mine.reflog.slice(0, -"/HEAD".length)));
  if (!mine || realOr(found.gitDir) !== ownGitDir) {
    throw new RefusedError(`refused: this worktree is no lane in STATUS at ${policyRef}`);
  }
  return {
    cwd,
    at,
    toplevel: top,
    commonDir,
    format,
    policyRef,
    policy,
    worktrees,
    unownedReflogs,
    lane: mine.lane,
  };
}

/**
 * Whether a lane's worktree and an administrative directory belong together as `git
 * worktree add` made them: the worktree's `.git` names that directory (the directory's
 * `gitdir` file naming the worktree is how the pair was found), and no other lane's
 * worktree names it. After `git worktree repair` following an edited `.git` file, two
 * lanes' paths name one directory, or a path names a directory that names another path:
 * then neither lane is bound and the directory's reflog belongs to no lane (fail closed).
 *
 * @example W2 edited its `.git` to name W1's directory and repaired it
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const claims = new Map([["/r/W1", "/r/.git/worktrees/W1"], ["/r/W2", "/r/.git/worktrees/W1"]]);
 * assertEquals(belongTogether("/r/W2", "/r/.git/worktrees/W1", claims), false);
 * const fine = new Map([["/r/W1", "/r/.git/worktrees/W1"], ["/r/W2", "/r/.git/worktrees/W2"]]);
 * assertEquals(belongTogether("/r/W2", "/r/.git/worktrees/W2", fine), true);
 * assertEquals(belongTogether("/r/W2", "/r/.git/worktrees/W1", fine), false);
 * ```
 * @param path The worktree (real path) whose directory's `gitdir` file names it.
 * @param adminDir That administrative directory (real path).
 * @param claims Every lane's worktree path → the git dir its `.git` names.
 * @returns True when the pair is intact.
 */
export function belongTogether(
  path: string,
  adminDir: string,
  claims: ReadonlyMap<string, string | undefined>,
): boolean {
  if (claims.get(path) !== adminDir) return false; // GUARD:worktree-names-admin
  for (const [other, dir] of claims) {
    if (other !== path && dir === adminDir) return false; // GUARD:admin-named-once
  }
  return true;
}

/**
 * Read `STATUS` at the tip of the policy ref through git (stdin, never an argument).
 *
 * @param at Where and how to run git.
 * @param policyRef A validated ref name.
 * @returns The file's text.
 * @throws {PolicyError} when the ref or the file is missing.
 */
export async function readStatus(at: At, policyRef: string): Promise<string> {
  const result = await runGit(["cat-file", "--batch"], {
    ...at,
    stdin: `${policyRef}:STATUS\n`,
    parse: true,
  });
  const bytes = result.stdout;
  const newline = bytes.indexOf(10);
  const header = decoder.decode(bytes.subarray(0, newline < 0 ? bytes.length : newline));
  const match = /^[0-9a-f]+ blob (\d+)$/.exec(header);
  if (!match?.[1]) {
    throw new PolicyError(`Cannot read the policy: no STATUS file at "${policyRef}"`);
  }
  const size = Number(match[1]);
  if (size > 1024 * 1024) {
    throw new PolicyError(`The policy STATUS at "${policyRef}" is larger than 1 MiB`);
  }
  return decoder.decode(bytes.subarray(newline + 1, newline + 1 + size));
}
