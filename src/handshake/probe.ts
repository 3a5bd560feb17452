/**
 * A capture's environment probe: where git says the current directory is, and what
 * configuration it reads, asked once with the caller's environment and once with none of it
 * (`HOME` and `XDG_CONFIG_HOME` kept, so the user's own files count as in their shell).
 *
 * Three git processes, the first of which also answers the capture's first questions (the
 * other two start once the capture's status has):
 *
 * 1. `git rev-parse`, with the caller's environment: the git directory, common directory,
 *    index, objects and HEAD's reflog, the location, HEAD and the ref it is on; git's trace
 *    names the variables that change what status reads, and git's version;
 * 2. `git config --list`, with the caller's environment, and
 * 3. `git config --list`, without it; both with `GIT_TRACE_SETUP`, so git also says where
 *    it found the repository (git directory, common directory, work tree, directory,
 *    prefix).
 *
 * When the two setups agree and the index and objects of (1) are the defaults of its git
 * directory, the caller's environment points git nowhere else: (1) without it would print
 * the same. Otherwise `git rev-parse` is asked once more without the environment and must
 * print the same bytes, as it always was before.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { LOCATION_ARGS, parseLocation } from "./location.ts";
import { sameBytes } from "../encoding.ts";
import { SPELLING_ARGS } from "./branch.ts";
import { assertGitVersion } from "../git_version.ts";
import { GitError, type GitResult } from "../git_error.ts";

/**
 * What the probe asks: every path the environment could redirect (git dir, common dir,
 * index, objects), HEAD's reflog, and the location. Each answer is one line.
 */
export const PROBE_ARGS: readonly string[] = [
  "rev-parse",
  "--absolute-git-dir",
  "--git-common-dir",
  "--git-path",
  "index",
  "--git-path",
  "objects",
  "--git-path",
  "logs/HEAD",
  ...LOCATION_ARGS,
];
const PROBE_LINES = 8;

/**
 * What the first call asks besides: the paths of the `HEAD` file and of `packed-refs` (the
 * index and the objects are the defaults exactly when they sit beside those), HEAD, the ref
 * it is on and the seed's spelling of it.
 */
const FIRST_ARGS: readonly string[] = [
  ...PROBE_ARGS,
  "--git-path",
  "HEAD",
  "--git-path",
  "packed-refs",
  "HEAD",
  ...SPELLING_ARGS.slice(1),
];
const FIRST_LINES = PROBE_LINES + 5;

/** Why a capture refuses an environment that points git elsewhere. */
export const ENVIRONMENT_REASON =
  "git's environment points it away from the directory it runs in (GIT_DIR, GIT_WORK_TREE, " +
  "GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_COMMON_DIR or the like is set); tether measures " +
  "the tree it stands in: unset them and run again";

/**
 * Variables that change what status reads without changing the configuration: the probe
 * asks git's trace for them, with the caller's environment and without it. (Empty ones are
 * not named by the trace; the ones whose empty value matters are pinned instead, see
 * `STATUS_ARGS`.)
 */
export const STATUS_VARIABLES: readonly string[] = [
  "GIT_ATTR_NOSYSTEM",
  "GIT_NO_REPLACE_OBJECTS",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_EXEC_PATH",
];

/**
 * What the comparisons keep of the caller's environment: where the user's own
 * configuration and ignore file are, as in their shell. Not `PATH`: git's trace names it
 * with git's own directory first, and git found there is not the `git` this binary may run.
 */
const HOME_VARIABLES: readonly string[] = ["HOME", "XDG_CONFIG_HOME"];

/** `git config --list` as records: `scope NUL key LF value NUL`, in git's order. */
const CONFIG_ARGS: readonly string[] = ["config", "--list", "-z", "--show-scope"];

/** Where git found the repository, as `GIT_TRACE_SETUP` prints it (on stderr). */
const SETUP_ENV = { GIT_TRACE_SETUP: "2" };

/** The record the clean configuration reading adds itself (its last `-c`). */
const OWN_RECORD = new TextEncoder().encode("command\0safe.directory\n*\0");

/** Why a capture refuses an environment whose settings change what status prints. */
export const CONFIG_REASON =
  "git's environment changes its configuration or what it reads (GIT_CONFIG_COUNT, " +
  "GIT_CONFIG_PARAMETERS, GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM, " +
  "GIT_ATTR_NOSYSTEM, GIT_ALTERNATE_OBJECT_DIRECTORIES or the like is set), and git status " +
  "prints something else without it, so the tree would be judged under settings the " +
  "block's capture may not have had: unset them and run again";

/**
 * Whether two `git config --list -z --show-scope` readings hold the same records, byte
 * for byte and in order, the clean one without the record it added itself.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const e = (s: string) => new TextEncoder().encode(s);
 * const own = "command\0safe.directory\n*\0";
 * assertEquals(sameConfig(e("global\0user.name\nu\0"), e(`global\0user.name\nu\0${own}`)), true);
 * assertEquals(sameConfig(e("global\0user.name\nu\0command\0color.ui\nnever\0"), e(`global\0user.name\nu\0${own}`)), false);
 * assertEquals(sameConfig(e("a"), e("a")), false); // the clean reading always ends with its own record
 * ```
 * @param mine The reading with the caller's environment.
 * @param clean The reading without it.
 * @returns True when the caller's environment changed no setting.
 */
export function sameConfig(mine: Uint8Array, clean: Uint8Array): boolean {
  const cut = clean.length - OWN_RECORD.length;
  if (cut < 0 || !sameBytes(clean.subarray(cut), OWN_RECORD)) return false;
  return sameBytes(mine, clean.subarray(0, cut)); // tether:guard env-config-compare
}

/** The five things `GIT_TRACE_SETUP` names, in the order git prints them. */
const SETUP_KEYS = ["git_dir", "git_common_dir", "worktree", "cwd", "prefix"];

/**
 * Where git found the repository, from its stderr under `GIT_TRACE_SETUP`: the five
 * `setup:` values in git's order (git escapes a newline in them), whatever prefix the
 * trace lines carry; undefined unless there are exactly those five.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const err = "12:00:00.1 trace.c:311  setup: git_dir: .git\nsetup: git_common_dir: .git\n" +
 *   "setup: worktree: /r\nsetup: cwd: /r\nsetup: prefix: a/\n";
 * assertEquals(setupOf(err), [".git", ".git", "/r", "/r", "a/"]);
 * assertEquals(setupOf("fatal: not a git repository\n"), undefined);
 * ```
 * @param stderr What git wrote to stderr.
 * @returns The values, or undefined.
 */
export function setupOf(stderr: string): string[] | undefined {
  const values: string[] = [];
  for (const line of stderr.split("\n")) {
    const m = /(?:^|\s)setup: ([a-z_]+): (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] !== SETUP_KEYS[values.length]) return undefined;
    values.push(m[2]!);
  }
  return values.length === SETUP_KEYS.length ? values : undefined;
}

/**
 * Whether the index and the object directory a probe names are the defaults of its git
 * directory: `index` beside the `HEAD` file, `objects` beside `packed-refs` (in the common
 * directory), each spelled as git spelled the other. `GIT_INDEX_FILE` or
 * `GIT_OBJECT_DIRECTORY`, even empty, names another.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(defaultPaths(".git/index", ".git/objects", ".git/HEAD", ".git/packed-refs"), true);
 * assertEquals(defaultPaths("index", "objects", "HEAD", "packed-refs"), true);
 * assertEquals(defaultPaths("./", ".git/objects", ".git/HEAD", ".git/packed-refs"), false);
 * assertEquals(defaultPaths(".git/index", "/o", ".git/HEAD", ".git/packed-refs"), false);
 * ```
 * @param index `--git-path index`.
 * @param objects `--git-path objects`.
 * @param head `--git-path HEAD`.
 * @param packed `--git-path packed-refs`.
 * @returns True when both are the defaults.
 */
export function defaultPaths(
  index: string,
  objects: string,
  head: string,
  packed: string,
): boolean {
  const dirOf = (path: string, name: string) =>
    path === name ? "" : path.endsWith(`/${name}`) ? path.slice(0, -name.length) : undefined;
  const gitDir = dirOf(head, "HEAD");
  const commonDir = dirOf(packed, "packed-refs");
  return gitDir !== undefined && commonDir !== undefined &&
    index === `${gitDir}index` && objects === `${commonDir}objects`; // tether:guard f1-default-paths
}

/**
 * What a probe says changes status in the caller's environment: the configuration git
 * reads differs from what it reads without the environment, a variable of
 * {@linkcode STATUS_VARIABLES} differs from the clean probe's (git sets `GIT_EXEC_PATH`
 * itself), or the trace named nothing at all (git always names `GIT_EXEC_PATH`, so a trace
 * that names nothing did not run): then nothing is known of the environment.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const exec = { GIT_EXEC_PATH: "/usr/lib/git-core" };
 * const probe = (configSame: boolean, traced: Record<string, string>) => ({ configSame, traced, cleanTraced: exec });
 * assertEquals(environmentSettings(probe(true, { HOME: "/h", ...exec })), []);
 * assertEquals(environmentSettings(probe(false, exec)), ["its configuration"]);
 * assertEquals(environmentSettings(probe(true, { GIT_EXEC_PATH: "/x" })), ["GIT_EXEC_PATH"]);
 * assertEquals(environmentSettings(probe(true, {})), ["(git's trace named nothing)"]);
 * ```
 * @param where The confirmed probe.
 * @returns What differs, in words; empty when nothing does.
 */
export function environmentSettings(
  where: Pick<Probe, "configSame" | "traced" | "cleanTraced">,
): string[] {
  if (where.traced.GIT_EXEC_PATH === undefined) return ["(git's trace named nothing)"]; // tether:guard env-config-untraced
  const out: string[] = [];
  if (!where.configSame) out.push("its configuration");
  for (const name of STATUS_VARIABLES) {
    if (where.traced[name] !== where.cleanTraced?.[name]) out.push(name); // tether:guard env-status-variables
  }
  return out;
}

const decoder = new TextDecoder();

/** Where git says the current directory is, confirmed without the caller's environment. */
export interface Probe {
  /** The git directory, absolute (where this worktree's `HEAD` file is). */
  gitDir: string;
  /** `top/prefix`, or undefined when the directory is not inside a work tree. */
  location: string | undefined;
  /** HEAD's reflog, as git names it relative to the current directory. */
  reflog: string;
  /** The common git directory, as git names it relative to the current directory. */
  commonDir: string;
  /** What git traced of {@linkcode STATUS_VARIABLES} and the home variables. */
  traced: Record<string, string>;
  /** Whether git reads the same configuration without the caller's environment (once confirmed). */
  configSame?: boolean;
  /** What the clean probe's trace named of {@linkcode STATUS_VARIABLES} (once confirmed). */
  cleanTraced?: Record<string, string> | undefined;
}

/** HEAD as the first call read it, when its answer was clear. */
export interface FirstHead {
  /** HEAD's commit id. */
  head: string;
  /** The ref HEAD is on (`refs/heads/main`), or `HEAD` when detached. */
  ref: string;
  /** What `git rev-parse --abbrev-ref HEAD` printed for it. */
  abbrev: string;
}

/** The first call's answer, not yet confirmed. */
export interface First {
  /** Where git says the directory is, with the caller's environment. */
  where: Probe;
  /** HEAD, when the first call read it clearly (otherwise it is read apart). */
  head: FirstHead | undefined;
  /** The probe's lines as git printed them, for a comparison byte for byte. */
  text: string;
  /** Whether the first call answered everything (the fast confirmation may be tried). */
  whole: boolean;
}

/** The probe, asked first with the caller's environment; the confirmation on demand. */
export interface Probing {
  /** The first call's answer. */
  first: Promise<First>;
  /**
   * Check git's version and ask again without the caller's environment.
   *
   * @returns The answer, once both agree: the environment points git nowhere else.
   */
  confirm(): Promise<Probe>;
}

/** The `cwd` part of git options for a capture elsewhere (empty for the current directory). */
export function at(cwd: string | undefined): { cwd?: string } {
  return cwd === undefined ? {} : { cwd };
}

function readProbe(lines: readonly string[], result: GitResult): Probe {
  return {
    gitDir: lines[0]!,
    location: parseLocation(lines.slice(5, PROBE_LINES)),
    reflog: lines[4]!,
    commonDir: lines[1]!,
    traced: result.traced ?? {},
  };
}

function linesOf(result: GitResult): string[] {
  return decoder.decode(result.stdout).replace(/\n$/, "").split("\n");
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** HEAD from the first call's last lines, when they say exactly one thing. */
function firstHead(lines: readonly string[], result: GitResult): FirstHead | undefined {
  const [, , head, ref, abbrev] = lines.slice(PROBE_LINES);
  // A warning (a ref named like HEAD) or anything unexpected: read HEAD apart instead.
  if (result.stderr.trim() !== "" || !OID.test(head ?? "")) return undefined;
  if (ref !== "HEAD" && !/^refs\/[^\n]+$/.test(ref ?? "")) return undefined;
  return { head: head!, ref: ref!, abbrev: abbrev! };
}

/**
 * Start the probe: the first call at once; the two configuration readings once
 * {@linkcode Probing.confirm} is called (the clean one needs the home variables the first
 * call's trace names, and neither is needed before status has started).
 *
 * @param cwd Where (default: the current directory).
 * @returns The probe under way.
 */
export function startProbe(cwd: string | undefined): Probing {
  // What git finds itself, as the clean reading does: never a pin (src/repo_pin.ts).
  const mine = runGit(FIRST_ARGS, {
    ...at(cwd),
    parse: true,
    allowFailure: true,
    ownRepository: true,
    traceEnv: [...STATUS_VARIABLES, ...HOME_VARIABLES, "PWD"], // PWD: what the caller's `pwd` prints
    keepReplaceObjects: true, // so the trace names the caller's GIT_NO_REPLACE_OBJECTS, not tether's
  });
  const first = (async (): Promise<First> => {
    const answer = await mine;
    const lines = linesOf(answer);
    if (answer.code === 0 && lines.length === FIRST_LINES) {
      const text = `${lines.slice(0, PROBE_LINES).join("\n")}\n`;
      return { where: readProbe(lines, answer), head: firstHead(lines, answer), text, whole: true };
    }
    // No commit yet, a git too old for an option, not a repository: the probe alone, whose
    // failure says which.
    const probe = await runGit(PROBE_ARGS, {
      ...at(cwd),
      parse: true,
      ownRepository: true,
      traceEnv: [...STATUS_VARIABLES, ...HOME_VARIABLES, "PWD"],
      keepReplaceObjects: true,
    });
    const again = linesOf(probe);
    if (again.length !== PROBE_LINES) throw newlineError();
    return {
      where: readProbe(again, probe),
      head: undefined,
      text: decoder.decode(probe.stdout),
      whole: false,
    };
  })();
  for (const p of [mine, first]) p.catch(() => {});
  let confirmed: Promise<Probe> | undefined;
  return {
    first,
    confirm: () => confirmed ??= confirm(cwd, mine, first),
  };
}

function newlineError(): GitError {
  return new GitError("failed", "Cannot read where this directory is: a git path holds a newline");
}

async function confirm(
  cwd: string | undefined,
  mine: Promise<GitResult>,
  first: Promise<First>,
): Promise<Probe> {
  const answer = await mine.catch(() => undefined);
  // A git too old to answer the probe is named as too old, before anything else.
  await assertGitVersion(answer?.version);
  const { where, text, whole } = await first;
  const cleanEnv = { ...homeOf(where.traced), GIT_DISCOVERY_ACROSS_FILESYSTEM: "1" };
  // Without the caller's environment but where the user's configuration is: the settings
  // git reads then come from the user's own files alone.
  const [mineConfig, clean] = await Promise.all([
    runGit(CONFIG_ARGS, { ...at(cwd), allowFailure: true, ownRepository: true, env: SETUP_ENV }),
    runGit(["-c", "safe.directory=*", ...CONFIG_ARGS], {
      ...at(cwd),
      allowFailure: true,
      cleanEnv: true, // tether:guard f1-clean-probe
      env: { ...cleanEnv, ...SETUP_ENV },
      traceEnv: STATUS_VARIABLES,
      keepReplaceObjects: true,
    }),
  ]);
  const lines = answer ? linesOf(answer) : [];
  const setup = setupOf(mineConfig.stderr);
  const cleanSetup = setupOf(clean.stderr);
  const same = whole && defaultPaths(lines[2]!, lines[3]!, lines[8]!, lines[9]!) &&
    setup !== undefined && cleanSetup?.join("\n") === setup.join("\n"); // tether:guard f1-same-setup
  if (!same) await assertSameWhere(cwd, text, cleanEnv);
  const configSame = mineConfig.code === 0 && clean.code === 0 &&
    sameConfig(mineConfig.stdout, clean.stdout);
  return { ...where, configSame, cleanTraced: clean.traced ?? {} };
}

/**
 * The probe's paths again without the caller's environment: they must be the same bytes.
 *
 * @throws {GitError} with {@linkcode ENVIRONMENT_REASON} when they are not.
 */
async function assertSameWhere(
  cwd: string | undefined,
  text: string,
  cleanEnv: Record<string, string>,
): Promise<void> {
  const clean = await runGit(["-c", "safe.directory=*", ...PROBE_ARGS], {
    ...at(cwd),
    parse: true,
    allowFailure: true,
    cleanEnv: true, // tether:guard f1-clean-fallback
    env: cleanEnv,
    keepReplaceObjects: true,
  });
  if (clean.code !== 0 || decoder.decode(clean.stdout) !== text) { // tether:guard f1-same-answer
    throw new GitError("failed", ENVIRONMENT_REASON);
  }
}

/** The home variables of a trace, as an environment. */
export function homeOf(traced: Readonly<Record<string, string>>): Record<string, string> {
  const home: Record<string, string> = {};
  for (const name of HOME_VARIABLES) {
    const value = traced[name];
    if (value !== undefined) home[name] = value;
  }
  return home;
}
