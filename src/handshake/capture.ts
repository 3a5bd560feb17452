/**
 * Live capture of the four tree facts, taken at one consistent moment:
 *
 * 1. **Where.** git is asked where the current directory is twice, with the caller's
 *    environment and with none of it; when the answers differ, a `GIT_DIR`,
 *    `GIT_WORK_TREE`, `GIT_INDEX_FILE` or the like points git at another tree than the
 *    one the caller stands in, and the capture is refused.
 * 2. **When.** `git status` runs between two reads of HEAD's reflog and, when HEAD is
 *    attached, its branch's reflog (every update of HEAD, from this worktree or through
 *    the branch from another, appends to one of them; a missing one is the error path). HEAD and the branch are read while status runs, and read again after.
 *    When the reflog is unchanged and the reads agree, HEAD held still from before status
 *    began until after it ended, so status compared against that HEAD. Otherwise the
 *    capture is taken again, and after {@linkcode CAPTURE_ATTEMPTS} it is refused: a HEAD
 *    that moved away and came back is never paired with a status from the other moment.
 * 3. **What.** HEAD, the branch and the location each come from their own git answer,
 *    read strictly: an empty, ambiguous or unexpected answer is an error, never a shifted
 *    line. The branch is read as a ref (`git symbolic-ref`), so a tag or a remote named
 *    like it changes nothing.
 *
 * @module
 */
import {
  assertGitVersion,
  GitError,
  type GitProcess,
  type GitResult,
  runGit,
  startGit,
  UNBORN_MESSAGE,
} from "../git.ts";
import { cQuotePath } from "../paths.ts";
import { absoluteDir, HOST_OS, isShellPwd } from "./cwd.ts";
import { fingerprint } from "./fingerprint.ts";
import { locate, LOCATION_ARGS, parseLocation } from "./location.ts";
import { branchValue, parseHeadRef, readSpelling, type Spelling } from "./branch.ts";
import { type TreeState, validateField } from "./fields.ts";
import { sameBytes } from "../encoding.ts";

/** A capture of the live tree. */
export interface LiveTree extends TreeState {
  /** `top/prefix` of the current directory as git names it, undefined when it cannot. */
  location: string | undefined;
  /** The ref HEAD is attached to (`refs/heads/main`), or `HEAD` when detached. */
  headRef: string;
  /** The bytes `git status --porcelain` printed (the fingerprint's input). */
  status: Uint8Array;
}

/** How many times a capture is taken again when HEAD moves under it. */
export const CAPTURE_ATTEMPTS = 5;

/**
 * What the probe asks: every path the environment could redirect (git dir, common dir,
 * index, objects), HEAD's reflog, and the location. Each answer is one line.
 */
const PROBE_ARGS: readonly string[] = [
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

/** Why a capture refuses an environment that points git elsewhere. */
export const ENVIRONMENT_REASON =
  "git's environment points it away from the directory it runs in (GIT_DIR, GIT_WORK_TREE, " +
  "GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_COMMON_DIR or the like is set); tether measures " +
  "the tree it stands in: unset them and run again";

/**
 * Variables that change what status reads without changing the configuration: the probe
 * asks git's trace for them, with the caller's environment and without it. (Empty ones are
 * not named by the trace; the ones whose empty value matters are pinned instead, see
 * {@linkcode STATUS_ARGS}.)
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

/**
 * The capture's `git status`, as the user's shell runs it, with what no honest repository
 * needs pinned: the commit-graph (a file beside the objects, in the repository or in an
 * alternate, that git trusts for HEAD's tree without checking it) is not read, and replace
 * refs are looked up where git looks by default (an empty `GIT_REPLACE_REF_BASE` would make
 * any ref a replacement, and git's trace does not name empty variables).
 */
export const STATUS_ARGS: readonly string[] = [
  "-c",
  "core.commitGraph=false",
  "status",
  "--porcelain",
];

/** The environment {@linkcode STATUS_ARGS} runs with, besides the caller's. */
export const STATUS_ENV: Readonly<Record<string, string>> = {
  GIT_REPLACE_REF_BASE: "refs/replace/",
};

/** `git config --list` as records: `scope NUL key LF value NUL`, in git's order. */
const CONFIG_ARGS: readonly string[] = ["config", "--list", "-z", "--show-scope"];

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
interface Probe {
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

/** The `cwd` part of git options for a capture elsewhere (empty for the current directory). */
function at(cwd: string | undefined): { cwd?: string } {
  return cwd === undefined ? {} : { cwd };
}

/** The probe, asked first with the caller's environment; the second answer on demand. */
interface Probing {
  /** Where git says the directory is, with the caller's environment (not yet confirmed). */
  where: Promise<Probe>;
  /**
   * Ask again without the caller's environment.
   *
   * @returns The answer, once both agree: the environment points git nowhere else.
   */
  confirm(): Promise<Probe>;
}

function readProbe(text: string, result: GitResult): Probe {
  const lines = text.replace(/\n$/, "").split("\n");
  if (lines.length !== PROBE_LINES) {
    throw new GitError("failed", "Cannot read where this directory is: a git path holds a newline");
  }
  return {
    gitDir: lines[0]!,
    location: parseLocation(lines.slice(5)),
    reflog: lines[4]!,
    commonDir: lines[1]!,
    traced: result.traced ?? {},
  };
}

function startProbe(cwd: string | undefined): Probing {
  // What git finds itself, as the clean probe does: never a pin (src/repo_pin.ts).
  const mine = runGit(PROBE_ARGS, {
    ...at(cwd),
    parse: true,
    ownRepository: true,
    traceEnv: [...STATUS_VARIABLES, ...HOME_VARIABLES, "PWD"], // PWD: what the caller's `pwd` prints
    keepReplaceObjects: true, // so the trace names the caller's GIT_NO_REPLACE_OBJECTS, not tether's
  });
  const where = mine.then((r) => readProbe(decoder.decode(r.stdout), r));
  for (const p of [mine, where]) p.catch(() => {});
  return {
    where,
    async confirm() {
      // Without the caller's environment but where the user's configuration is: the
      // settings git reads then come from the user's own files alone. Both configuration
      // readings run beside the clean probe.
      const answer = await mine;
      const cleanEnv = { ...homeOf(answer.traced ?? {}), GIT_DISCOVERY_ACROSS_FILESYSTEM: "1" };
      const [clean, myConfig, cleanConfig] = await Promise.all([
        runGit(["-c", "safe.directory=*", ...PROBE_ARGS], {
          ...at(cwd),
          parse: true,
          allowFailure: true,
          cleanEnv: true, // tether:guard f1-clean-probe
          env: cleanEnv,
          traceEnv: STATUS_VARIABLES,
          keepReplaceObjects: true,
        }),
        runGit(CONFIG_ARGS, { ...at(cwd), allowFailure: true, ownRepository: true }),
        runGit(["-c", "safe.directory=*", ...CONFIG_ARGS], {
          ...at(cwd),
          allowFailure: true,
          cleanEnv: true,
          env: cleanEnv,
        }),
      ]);
      const text = decoder.decode(answer.stdout);
      if (clean.code !== 0 || decoder.decode(clean.stdout) !== text) { // tether:guard f1-same-answer
        throw new GitError("failed", ENVIRONMENT_REASON);
      }
      const configSame = myConfig.code === 0 && cleanConfig.code === 0 &&
        sameConfig(myConfig.stdout, cleanConfig.stdout);
      return { ...readProbe(text, answer), configSame, cleanTraced: clean.traced ?? {} };
    },
  };
}

async function probe(cwd: string | undefined): Promise<Probe> {
  return await startProbe(cwd).confirm();
}

async function reflogId(reflogs: readonly string[], cwd: string | undefined): Promise<string> {
  const r = await runGit(["hash-object", "--no-filters", "--", ...reflogs], {
    ...at(cwd),
    allowFailure: true,
  });
  if (r.code !== 0) {
    await readHeadOid(cwd); // a repository without commits has no reflog either: say that
    throw new GitError(
      "failed",
      (reflogs.length > 1 ? "HEAD or the branch it is attached to" : "HEAD") +
        " has no reflog to show it held still during the capture (core.logAllRefUpdates " +
        "is off, refs are not files, or the branch was made without one)",
      r.stderr,
      r.code,
    );
  }
  return decoder.decode(r.stdout).replace(/\n$/, "");
}

/**
 * The reflogs that record every move of HEAD: HEAD's own, and when HEAD is attached, the
 * branch's too (a branch's reflog lives in the common directory, beside its ref), since
 * another worktree's `git update-ref refs/heads/<branch>` moves this HEAD without writing
 * this worktree's `logs/HEAD`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const where = { gitDir: "/r/.git", location: undefined, reflog: ".git/logs/HEAD", commonDir: ".git" };
 * assertEquals(reflogsOf(where, "refs/heads/main"), [".git/logs/HEAD", ".git/logs/refs/heads/main"]);
 * assertEquals(reflogsOf(where, "HEAD"), [".git/logs/HEAD"]);
 * ```
 * @param where The probe's answer.
 * @param ref The ref HEAD is attached to, or `HEAD`.
 * @returns The reflog files to read.
 */
export function reflogsOf(where: Pick<Probe, "reflog" | "commonDir">, ref: string): string[] {
  if (ref === "HEAD") return [where.reflog];
  return [where.reflog, `${where.commonDir}/logs/${ref}`]; // tether:guard f4-branch-reflog
}

async function readHeadOid(cwd: string | undefined): Promise<string> {
  const r = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
    ...at(cwd),
    parse: true,
    allowFailure: true,
  });
  const text = decoder.decode(r.stdout);
  if (r.code === 1 && text === "") throw new GitError("unborn", UNBORN_MESSAGE, r.stderr, 1);
  if (r.code !== 0 || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})\n$/.test(text)) {
    throw new GitError("failed", "Cannot read HEAD: git rev-parse gave no clear answer");
  }
  return text.slice(0, -1);
}

async function readHeadRef(cwd: string | undefined): Promise<string> {
  const r = await runGit(["symbolic-ref", "-q", "HEAD"], {
    ...at(cwd),
    parse: true,
    allowFailure: true,
  });
  const ref = parseHeadRef(r);
  if (ref === undefined) {
    throw new GitError(
      "failed",
      `Cannot read the branch: git symbolic-ref gave no clear answer${
        r.stderr ? `: ${r.stderr.trim().split("\n").pop()}` : ""
      }`,
    );
  }
  return ref;
}

interface Moment {
  head: string;
  ref: string;
  status: GitResult;
  /** What `git rev-parse --abbrev-ref HEAD` printed for `ref`, when asked and clear. */
  abbrev: string | undefined;
}

/** A capture's readers for after status: up while status runs, asked once it has ended. */
interface Readers {
  /** `git cat-file --batch-check`: a line `HEAD` gives HEAD's id now. */
  head: GitProcess;
  /** `git hash-object --no-filters --stdin-paths`: a line per file gives its blob id now. */
  files: GitProcess;
  /** False once an answer was missing or not an id: a later one could be out of step. */
  usable: boolean;
}

function startReaders(cwd: string | undefined): Readers | undefined {
  // Flushed per answer whatever the caller's GIT_FLUSH: each one is waited for.
  const env = { GIT_FLUSH: "1", GIT_NO_REPLACE_OBJECTS: "1" };
  let head: GitProcess | undefined;
  try {
    head = startGit(["cat-file", "--batch-check=%(objectname)"], { ...at(cwd), env });
    const files = startGit(["hash-object", "--no-filters", "--stdin-paths"], { ...at(cwd), env });
    return { head, files, usable: true };
  } catch {
    head?.finish().catch(() => {});
    return undefined; // the reads after status start their own processes instead
  }
}

async function closeReaders(readers: Readers | undefined): Promise<void> {
  if (readers) await Promise.all([readers.head.finish(), readers.files.finish()]).catch(() => {});
}

/**
 * A path git printed relative to where it ran, made absolute against that directory (the
 * kernel resolves any `..` from there, as git would). `hash-object --stdin-paths` may move
 * to the top level before it reads a path (git 2.39 does), unlike paths given as arguments.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(absoluteFrom("/r/sub", "../.git/logs/HEAD"), "/r/sub/../.git/logs/HEAD");
 * assertEquals(absoluteFrom("/r", "/elsewhere/.git/logs/HEAD"), "/elsewhere/.git/logs/HEAD");
 * assertEquals(absoluteFrom("C:/r", "D:/g/logs/HEAD"), "D:/g/logs/HEAD");
 * ```
 * @param base The directory git ran in (absolute).
 * @param path The path as git printed it.
 * @returns The absolute path.
 */
export function absoluteFrom(base: string, path: string): string {
  return /^(?:[/\\]|[A-Za-z]:[/\\])/.test(path) ? path : `${base}/${path}`;
}

/**
 * The blob ids a file holding exactly `text` has, in either object format: the ids
 * `hash-object` prints for it.
 *
 * @example The empty file
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals((await blobIds(""))[0], "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
 * ```
 * @param text The content.
 * @returns The SHA-1 and the SHA-256 id.
 */
export async function blobIds(text: string): Promise<string[]> {
  const body = new TextEncoder().encode(text);
  const object = new Uint8Array([...new TextEncoder().encode(`blob ${body.length}\0`), ...body]);
  return await Promise.all(["SHA-1", "SHA-256"].map(async (algorithm) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest(algorithm, object)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("")
  ));
}

/** What the reads after status found: HEAD, the ref it is attached to, the reflogs' ids. */
interface After {
  head: string;
  ref: string;
  reflog: string;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** One line of `--stdin-paths`: C-quoted when it starts with a quote or holds a control character. */
function pathLine(path: string): string {
  // deno-lint-ignore no-control-regex
  return /^"|[\u0000-\u001f\u007f]/.test(path) ? cQuotePath(path) : path;
}

/**
 * The reads after status through the readers, one after another and no process started:
 * HEAD's id, then the `HEAD` file (it must hold what git writes for `attached`, so that its
 * id names the ref HEAD is attached to), then the reflogs.
 *
 * @returns What they found, or undefined when the readers cannot vouch for it (a reader
 *   failed, an answer is not an id, the `HEAD` file holds anything else): then the caller
 *   reads with processes of its own.
 */
async function readAfter(
  readers: Readers,
  where: Probe,
  attached: string,
  reflogs: readonly string[],
): Promise<After | undefined> {
  if (!readers.usable) return undefined;
  readers.usable = false; // until every answer has been read
  try {
    await readers.head.send("HEAD\n");
    const head = await readers.head.readLine();
    if (head === undefined || !OID.test(head)) return undefined;
    const files = [`${where.gitDir}/HEAD`, ...reflogs];
    await readers.files.send(files.map((f) => `${pathLine(f)}\n`).join(""));
    const ids: string[] = [];
    for (const _ of files) {
      const id = await readers.files.readLine();
      if (id === undefined || !OID.test(id)) return undefined;
      ids.push(id);
    }
    readers.usable = true;
    const written = attached === "HEAD" ? `${head}\n` : `ref: ${attached}\n`;
    if (!(await blobIds(written)).includes(ids[0]!)) return undefined; // tether:guard f4-head-file
    return { head, ref: attached, reflog: ids.slice(1).join("\n") };
  } catch {
    return undefined;
  }
}

/**
 * One attempt: the reflogs are read once HEAD and the branch have been (they name the
 * branch's reflog), status starts once the reflogs have been read, and once status has
 * ended HEAD, the branch and the reflogs are read again, in that order.
 *
 * @param where Where the probe says the directory is.
 * @param cwd Where to capture.
 * @param before HEAD and the ref it is attached to, being read.
 * @param started Called once status has started; gives the readers for after it, if any.
 * @param spell Also read the seed's spelling of the branch (for a block), while status runs.
 * @returns The moment, or undefined when HEAD moved.
 */
async function attempt(
  where: Promise<Probe>,
  cwd: string | undefined,
  before: Before,
  started: () => Readers | undefined,
  spell: boolean,
): Promise<Moment | undefined> {
  const attached = await before.attached;
  const probed = await where;
  const base = cwd ?? Deno.cwd();
  const reflogs = reflogsOf(probed, attached).map((p) => absoluteFrom(base, p));
  const reflog = await reflogId(reflogs, cwd);
  const head = await before.head;
  // Every move of HEAD from here on is in a reflog read above.
  const status = await (async () => {
    const running = runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV, keepReplaceObjects: true }); // parity with the bash recipe
    running.catch(() => {});
    const readers = started();
    // Inside the window the reflogs vouch for, so it speaks of the HEAD status saw.
    const spelling: Promise<Spelling | undefined> = spell
      ? readSpelling(cwd)
      : Promise.resolve(undefined);
    return { result: await running, readers, spelling };
  })();
  // HEAD and the branch are read before the reflogs: what they say held from the first
  // reflog read to the second.
  let after = status.readers && await readAfter(status.readers, probed, attached, reflogs);
  if (!after) {
    const [headAfter, refAfter] = await Promise.all([readHeadOid(cwd), readHeadRef(cwd)]);
    after = { head: headAfter, ref: refAfter, reflog: await reflogId(reflogs, cwd) };
  }
  const still = after.reflog === reflog && after.head === head && after.ref === attached; // tether:guard f4-still
  if (!still) return undefined;
  // Only an answer about the ref read here spells it; otherwise tether's own spelling stands.
  const spelled = await status.spelling;
  const abbrev = spelled?.ref === attached ? spelled.abbrev : undefined;
  return { head, ref: attached, status: status.result, abbrev };
}

/**
 * Refuse an environment whose settings change what status prints (see
 * {@linkcode CONFIG_REASON}): when {@linkcode environmentSettings} finds any, status is
 * taken again with none of the caller's environment but the home variables (the user's own
 * configuration and ignore file are read as in their shell), and the two must agree byte
 * for byte. A harness whose settings change nothing status prints is not refused.
 *
 * @param where The confirmed probe.
 * @param cwd Where the capture ran.
 * @param status The capture's status.
 * @throws {GitError} when the two disagree or the second cannot be taken.
 */
async function assertStatusWithoutConfig(
  where: Probe,
  cwd: string | undefined,
  status: GitResult,
): Promise<void> {
  const differs = environmentSettings(where);
  if (differs.length === 0) return; // tether:guard env-config-seen
  const plain = await runGit(["-c", "safe.directory=*", ...STATUS_ARGS], {
    ...at(cwd),
    keepReplaceObjects: true,
    allowFailure: true,
    cleanEnv: true,
    env: { ...homeOf(where.traced), ...STATUS_ENV, GIT_DISCOVERY_ACROSS_FILESYSTEM: "1" },
  });
  const what = `(it changes ${differs.join(", ")})`;
  if (plain.code !== 0) {
    throw new GitError(
      "failed",
      `git's environment changes its settings ${what}, and git status without it failed, so ` +
        `tether cannot tell whether they change what it prints: ${
          plain.stderr.trim().split("\n").pop() ?? ""
        }`,
    );
  }
  if (!sameBytes(plain.stdout, status.stdout)) { // tether:guard env-config-same-status
    throw new GitError("failed", `${CONFIG_REASON} ${what}`);
  }
}

/** The home variables of a trace, as an environment. */
function homeOf(traced: Readonly<Record<string, string>>): Record<string, string> {
  const home: Record<string, string> = {};
  for (const name of HOME_VARIABLES) {
    const value = traced[name];
    if (value !== undefined) home[name] = value;
  }
  return home;
}

/** What one attempt reads first: HEAD and the ref it is attached to. */
interface Before {
  attached: Promise<string>;
  head: Promise<string>;
}

function readBefore(cwd: string | undefined): Before {
  const before = { attached: readHeadRef(cwd), head: readHeadOid(cwd) };
  for (const p of [before.attached, before.head]) p.catch(() => {});
  return before;
}

/** Called when a capture's first `git status` has started (or the capture has ended without one). */
type Started = () => void;

/**
 * Take a capture.
 *
 * @param cwd Where (default: the current directory).
 * @param started Called once the first status has started, or the capture ended without.
 * @param linger Do not wait for the readers after status to exit (they have been told to):
 *   for a process that exits right after the capture.
 * @param spell Spell the branch and the current directory as the seed's commands print them.
 * @returns The live tree.
 */
async function capture(
  cwd: string | undefined,
  started: Started = () => {},
  linger = false,
  spell = false,
): Promise<LiveTree> {
  // Status is the slow part, and the first one waits for three answers only: where the
  // reflogs are (the probe with the caller's environment), the branch HEAD is attached to,
  // and HEAD; then for the reflogs. Those start first; everything else starts once status
  // has: the probe without the caller's environment and git's version (needed only before
  // the capture is used) and the readers for after status. All read-only, so they may
  // run before the environment has been cleared; nothing read is used unless it and the
  // version check out.
  const probing = startProbe(cwd);
  const first = readBefore(cwd);
  let checks: Promise<Probe> | undefined;
  const checked = () =>
    checks ??= (async () => {
      const confirmed = probing.confirm();
      confirmed.catch(() => {});
      await assertGitVersion(); // a git too old to answer the probe is named as too old
      return await confirmed; // then an environment that points git elsewhere
    })();
  let readers: Readers | undefined;
  let opened = false;
  const rest = () => {
    checked().catch(() => {});
    if (!opened) {
      opened = true;
      readers = startReaders(cwd);
    }
    started();
    return readers;
  };
  try {
    for (let n = 1; n <= CAPTURE_ATTEMPTS; n++) {
      let moment: Moment | undefined;
      try {
        const before = n === 1 ? first : readBefore(cwd);
        moment = await attempt(probing.where, cwd, before, rest, spell);
      } catch (error) {
        await checked();
        throw error;
      }
      if (moment) {
        const where = await checked();
        await assertStatusWithoutConfig(where, cwd, moment.status);
        return {
          parent_head: moment.head,
          parent_branch: moment.abbrev ?? branchValue(moment.ref),
          parent_cwd: cwd ?? (spell ? await shellCwd(where) : Deno.cwd()),
          parent_dirty_fingerprint: await fingerprint(moment.status.stdout),
          location: where.location,
          headRef: moment.ref,
          status: moment.status.stdout,
        };
      }
    }
    await checked();
  } finally {
    started();
    const closing = closeReaders(readers);
    if (!linger) await closing;
  }
  throw new GitError(
    "failed",
    `HEAD kept moving during capture (${CAPTURE_ATTEMPTS} attempts): the tree is changing`,
  );
}

/**
 * Refuse, before anything else runs, an environment that points git away from the
 * current directory (see {@linkcode ENVIRONMENT_REASON}): callers that write (a seed
 * capture writes objects and a private index) call it first, so a refused environment
 * writes nothing anywhere.
 *
 * @throws {GitError} when the environment points git elsewhere, or git fails.
 */
export async function confirmEnvironment(): Promise<void> {
  await probe(undefined);
}

let early: Promise<LiveTree> | undefined;

/**
 * Start the capture now, so that it runs while the caller loads the rest of its code and
 * reads its input. The next {@linkcode captureLive} uses it.
 *
 * For a process that exits once it has used the capture (`verify`): the capture's last
 * readers are told to end but not waited for.
 *
 * @returns Settles once the capture's `git status` has started (or the capture ended
 *   without one): loading and reading then run beside status, not before it.
 */
export function prestartCapture(): Promise<void> {
  if (early) return Promise.resolve();
  const { promise, resolve } = Promise.withResolvers<void>();
  early = capture(undefined, resolve, true);
  early.catch(() => {}); // awaited later; never an unhandled rejection
  return promise;
}

/**
 * The current directory as the caller's shell `pwd` prints it: `$PWD` (which git's trace
 * names, as tether reads no environment) when it is a logical path git locates at the
 * same directory as this one, such as a path through a symlink; otherwise the resolved
 * path. The check costs a git call only when the two spellings differ.
 *
 * @param where The confirmed probe of the current directory.
 * @returns The spelling for `parent_cwd`.
 */
async function shellCwd(where: Probe): Promise<string> {
  const physical = Deno.cwd();
  const pwd = where.traced.PWD;
  if (pwd === undefined || pwd === physical || where.location === undefined) return physical;
  if (!isShellPwd(pwd, HOST_OS) || validateField("parent_cwd", pwd) !== undefined) return physical;
  // A stale or foreign $PWD is never written: only one git names as this very directory.
  return (await locate(pwd)) === where.location ? pwd : physical; // tether:guard cwd-pwd-same-dir
}

/** Where {@linkcode captureLive} captures, and for whom. */
export interface CaptureOptions {
  /** The directory to capture in, through `git -C` (default: the current directory). */
  cwd?: string;
  /**
   * The capture is for a block: `parent_branch` as `git rev-parse --abbrev-ref HEAD`
   * prints it (`heads/<name>` when a tag shares the name) and, in the current directory,
   * `parent_cwd` as `pwd` prints it (a symlinked spelling kept), so the seed's own Step 0
   * agrees. A git call or two more; verify, which compares refs and locations, need not ask.
   */
  seedSpelling?: boolean;
}

/**
 * The directory a capture names as `parent_cwd`: the given one made absolute (symlinks
 * kept, as a shell's `pwd` keeps them), or the current directory.
 *
 * @param options The directory (default: the current one).
 * @returns An absolute path.
 */
export function captureDirectory(options: CaptureOptions = {}): string {
  return options.cwd === undefined ? Deno.cwd() : absoluteDir(options.cwd, Deno.cwd(), HOST_OS);
}

/**
 * Capture the live tree of the current directory (or `options.cwd`, made absolute).
 *
 * @param options Where to capture.
 * @returns HEAD, branch, cwd, fingerprint and location, from one consistent moment.
 * @throws {GitError} when git is missing, too old, not in a repository, fails, gives an
 * unclear answer, is pointed elsewhere by the environment, or HEAD keeps moving.
 */
export function captureLive(options: CaptureOptions = {}): Promise<LiveTree> {
  const spell = options.seedSpelling ?? false;
  if (options.cwd !== undefined) return capture(captureDirectory(options), undefined, false, spell);
  if (spell) return capture(undefined, undefined, false, true); // never verify's early capture
  const live = early ?? capture(undefined);
  early = undefined;
  return live;
}
