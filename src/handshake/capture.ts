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
import { assertGitVersion, GitError, type GitResult, runGit, UNBORN_MESSAGE } from "../git.ts";
import { absoluteDir, HOST_OS } from "./cwd.ts";
import { fingerprint } from "./fingerprint.ts";
import type { TreeState } from "./fields.ts";

/** A capture of the live tree. */
export interface LiveTree extends TreeState {
  /** `top/prefix` of the current directory as git names it, undefined when it cannot. */
  location: string | undefined;
  /** The ref HEAD is attached to (`refs/heads/main`), or `HEAD` when detached. */
  headRef: string;
}

/** How many times a capture is taken again when HEAD moves under it. */
export const CAPTURE_ATTEMPTS = 5;

/** The arguments that print where a directory sits: inside-work-tree, top level, prefix. */
export const LOCATION_ARGS: readonly string[] = [
  "--is-inside-work-tree",
  "--show-toplevel",
  "--show-prefix",
];

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

const decoder = new TextDecoder();

/**
 * Read the location of a directory from `git rev-parse --is-inside-work-tree
 * --show-toplevel --show-prefix` output lines: `top/prefix` when the directory is inside
 * the work tree and the output has exactly the expected lines, undefined otherwise (a
 * directory outside the work tree gets an empty prefix, and a path holding a newline
 * would shift the lines: neither may identify a directory).
 *
 * @example Inside, outside, and a newline in a path
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseLocation(["true", "/r", "a/b/"]), "/r/a/b/");
 * assertEquals(parseLocation(["false", "/r", ""]), undefined);
 * assertEquals(parseLocation(["true", "/r", "x", "a/"]), undefined);
 * ```
 * @param lines The three output lines (without the final empty line).
 * @returns `top/prefix`, or undefined.
 */
export function parseLocation(lines: readonly string[]): string | undefined {
  if (lines.length !== 3) return undefined;
  const [inside, top, prefix] = lines as [string, string, string];
  if (inside !== "true" || !top.startsWith("/") && !/^[A-Za-z]:\//.test(top)) return undefined;
  if (prefix !== "" && !prefix.endsWith("/")) return undefined;
  return `${top}/${prefix}`;
}

/**
 * Read the branch from `git symbolic-ref -q HEAD`: the ref HEAD is attached to, or `HEAD`
 * when HEAD is detached (exit 1, nothing printed). Anything else is no answer.
 *
 * @example Attached, detached, and failures
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const r = (code: number, out: string, err = "") => ({ code, stdout: new TextEncoder().encode(out), stderr: err });
 * assertEquals(parseHeadRef(r(0, "refs/heads/main\n")), "refs/heads/main");
 * assertEquals(parseHeadRef(r(1, "")), "HEAD");
 * assertEquals(parseHeadRef(r(0, "\n")), undefined);
 * assertEquals(parseHeadRef(r(128, "", "fatal: not a git repository")), undefined);
 * ```
 * @param result What `git symbolic-ref -q HEAD` returned.
 * @returns The ref, `HEAD`, or undefined when the answer is not one of those.
 */
export function parseHeadRef(result: GitResult): string | undefined {
  const text = decoder.decode(result.stdout);
  if (result.code === 1 && text === "" && result.stderr === "") return "HEAD";
  if (result.code !== 0 || !/^refs\/[^\n]+\n$/.test(text)) return undefined;
  return text.slice(0, -1);
}

/**
 * The block's spelling of a branch ref, as `git rev-parse --abbrev-ref HEAD` prints it in
 * a repository where no other ref shares the name: `refs/heads/x` → `x`, detached → `HEAD`.
 * A ref outside `refs/heads/` keeps its full name; it is no branch and matches none.
 *
 * @example Branch, detached, elsewhere
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(branchValue("refs/heads/feature/x"), "feature/x");
 * assertEquals(branchValue("HEAD"), "HEAD");
 * assertEquals(branchValue("refs/remotes/origin/main"), "refs/remotes/origin/main");
 * ```
 * @param ref What {@linkcode parseHeadRef} read.
 * @returns The value for `parent_branch`.
 */
export function branchValue(ref: string): string {
  return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
}

/**
 * The ref a block's `parent_branch` names: `HEAD` (detached) or `refs/heads/<value>`.
 *
 * @example Branch and detached
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(branchRef("main"), "refs/heads/main");
 * assertEquals(branchRef("HEAD"), "HEAD");
 * ```
 * @param value The block's value.
 * @returns The ref it names.
 */
export function branchRef(value: string): string {
  return value === "HEAD" ? "HEAD" : `refs/heads/${value}`;
}

/** Where git says the current directory is, confirmed without the caller's environment. */
interface Probe {
  /** `top/prefix`, or undefined when the directory is not inside a work tree. */
  location: string | undefined;
  /** HEAD's reflog, as git names it relative to the current directory. */
  reflog: string;
  /** The common git directory, as git names it relative to the current directory. */
  commonDir: string;
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

function readProbe(text: string): Probe {
  const lines = text.replace(/\n$/, "").split("\n");
  if (lines.length !== PROBE_LINES) {
    throw new GitError("failed", "Cannot read where this directory is: a git path holds a newline");
  }
  return { location: parseLocation(lines.slice(5)), reflog: lines[4]!, commonDir: lines[1]! };
}

function startProbe(cwd: string | undefined): Probing {
  const mine = runGit(PROBE_ARGS, { ...at(cwd), parse: true });
  const where = mine.then((r) => readProbe(decoder.decode(r.stdout)));
  for (const p of [mine, where]) p.catch(() => {});
  return {
    where,
    async confirm() {
      const clean = runGit(["-c", "safe.directory=*", ...PROBE_ARGS], {
        ...at(cwd),
        parse: true,
        allowFailure: true,
        cleanEnv: true, // tether:guard f1-clean-probe
        env: { GIT_DISCOVERY_ACROSS_FILESYSTEM: "1" },
      });
      clean.catch(() => {});
      const text = decoder.decode((await mine).stdout);
      const theirs = await clean;
      if (theirs.code !== 0 || decoder.decode(theirs.stdout) !== text) { // tether:guard f1-same-answer
        throw new GitError("failed", ENVIRONMENT_REASON);
      }
      return readProbe(text);
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
  return decoder.decode(r.stdout);
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
 * const where = { location: undefined, reflog: ".git/logs/HEAD", commonDir: ".git" };
 * assertEquals(reflogsOf(where, "refs/heads/main"), [".git/logs/HEAD", ".git/logs/refs/heads/main"]);
 * assertEquals(reflogsOf(where, "HEAD"), [".git/logs/HEAD"]);
 * ```
 * @param where The probe's answer.
 * @param ref The ref HEAD is attached to, or `HEAD`.
 * @returns The reflog files to read.
 */
export function reflogsOf(where: Probe, ref: string): string[] {
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
}

/**
 * One attempt: reflog, then status with HEAD and branch read while it runs, then reflog,
 * HEAD and branch again.
 *
 * @param where Where the probe says the directory is.
 * @param cwd Where to capture.
 * @param attachedNow The ref HEAD is attached to, when already being read.
 * @param started Called once status has started.
 * @returns The moment, or undefined when HEAD moved.
 */
async function attempt(
  where: Promise<Probe>,
  cwd: string | undefined,
  attachedNow?: Promise<string>,
  started: () => void = () => {},
): Promise<Moment | undefined> {
  const attached = await (attachedNow ?? readHeadRef(cwd));
  const reflogs = reflogsOf(await where, attached);
  const before = await reflogId(reflogs, cwd);
  const during = [
    runGit(["status", "--porcelain"], { ...at(cwd), keepReplaceObjects: true }), // parity with the bash recipe
    readHeadOid(cwd),
    readHeadRef(cwd),
  ] as const;
  for (const p of during) p.catch(() => {});
  started();
  const [status, head, ref] = await Promise.all(during);
  const [after, headAfter, refAfter] = await Promise.all([
    reflogId(reflogs, cwd),
    readHeadOid(cwd),
    readHeadRef(cwd),
  ]);
  const still = after === before && headAfter === head && refAfter === ref; // tether:guard f4-still
  return still && ref === attached ? { head, ref, status } : undefined;
}

/** Called when a capture's first `git status` has started (or the capture has ended without one). */
type Started = () => void;

async function capture(cwd: string | undefined, started: Started = () => {}): Promise<LiveTree> {
  // Status is the slow part, and the first one waits for two answers only: where the
  // reflogs are (the probe with the caller's environment) and the branch HEAD is attached
  // to. Those two start first; everything else starts once status has started: the probe
  // without the caller's environment and git's version are needed only before the capture
  // is used. All of it is read-only, so it may run before the environment has been
  // cleared; nothing it read is used unless that and the version check out.
  const probing = startProbe(cwd);
  const attached = readHeadRef(cwd);
  attached.catch(() => {});
  let checks: Promise<Probe> | undefined;
  const checked = () =>
    checks ??= (async () => {
      const confirmed = probing.confirm();
      confirmed.catch(() => {});
      await assertGitVersion(); // a git too old to answer the probe is named as too old
      return await confirmed; // then an environment that points git elsewhere
    })();
  const rest = () => {
    checked().catch(() => {});
    started();
  };
  try {
    for (let n = 1; n <= CAPTURE_ATTEMPTS; n++) {
      let moment: Moment | undefined;
      try {
        moment = await attempt(probing.where, cwd, n === 1 ? attached : undefined, rest);
      } catch (error) {
        await checked();
        throw error;
      }
      if (moment) {
        const where = await checked();
        return {
          parent_head: moment.head,
          parent_branch: branchValue(moment.ref),
          parent_cwd: cwd ?? Deno.cwd(),
          parent_dirty_fingerprint: await fingerprint(moment.status.stdout),
          location: where.location,
          headRef: moment.ref,
        };
      }
    }
    await checked();
  } finally {
    rest();
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
 * @returns Settles once the capture's `git status` has started (or the capture ended
 *   without one): loading and reading then run beside status, not before it.
 */
export function prestartCapture(): Promise<void> {
  if (early) return Promise.resolve();
  const { promise, resolve } = Promise.withResolvers<void>();
  early = capture(undefined, resolve);
  early.catch(() => {}); // awaited later; never an unhandled rejection
  return promise;
}

/** Where {@linkcode captureLive} captures. */
export interface CaptureOptions {
  /** The directory to capture in, through `git -C` (default: the current directory). */
  cwd?: string;
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
  if (options.cwd !== undefined) return capture(captureDirectory(options));
  const live = early ?? capture(undefined);
  early = undefined;
  return live;
}
