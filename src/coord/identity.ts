/**
 * The repository as `coord` sees it at the start of every command: the worktree that
 * contains the current directory, the shared common dir, the object format, today's
 * policy from the policy ref, and which lane each worktree is. Identity comes only from
 * the worktree; there is no flag or variable that sets it.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { GitError, gitText, type ObjectFormat, runGit } from "../git.ts";
import { PolicyError, RefusedError } from "./errors.ts";
import { DEFAULT_POLICY_REF, isPolicyRef, parsePolicy, type Policy, PRIMARY } from "./policy.ts";
import { discoverWorktree, parseWorktreeList, readWorktreeAdminNames, realOr } from "./worktree.ts";

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
  for (const [lane, rel] of policy.lanes) {
    if (lane === PRIMARY) {
      worktrees.push({ lane, path: mainReal, reflog: "main-worktree/HEAD" });
      continue;
    }
    const want = realOr(resolve(mainReal, rel));
    const path = linked.find((p) => p === want);
    const id = path === undefined ? undefined : admin.get(path);
    if (path !== undefined && id !== undefined) {
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
  const mine = top === found.top ? worktrees.find((w) => w.path === top) : undefined;
  if (!mine) throw new RefusedError(`refused: this worktree is no lane in STATUS at ${policyRef}`);
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
