/**
 * Live capture of the four tree facts, taken at one consistent moment:
 *
 * 1. **Where.** git is asked where the current directory is with the caller's environment
 *    and without it (src/handshake/probe.ts); when the answers differ, a `GIT_DIR`,
 *    `GIT_WORK_TREE`, `GIT_INDEX_FILE` or the like points git at another tree than the
 *    one the caller stands in, and the capture is refused.
 * 2. **When.** `git status` runs between two reads of HEAD's reflog and, when HEAD is
 *    attached, its branch's reflog (every update of HEAD, from this worktree or through
 *    the branch from another, appends to one of them; a missing one is the error path).
 *    HEAD and the branch are read before the reflogs, and again after status from the
 *    `HEAD` file and the branch's ref file. When the reflogs are unchanged and the reads
 *    agree, HEAD held still from before status began until after it ended, so status
 *    compared against that HEAD. Otherwise the capture is taken again, and after
 *    {@linkcode CAPTURE_ATTEMPTS} it is refused: a HEAD that moved away and came back is
 *    never paired with a status from the other moment.
 * 3. **What.** HEAD, the branch and the location each come from git's own answer, read
 *    strictly: an empty, ambiguous or unexpected answer is read again apart
 *    (`git symbolic-ref`, `git rev-parse --verify`) or is an error, never a shifted line.
 *    The branch is read as a ref, so a tag or a remote named like it changes nothing.
 *
 * Five git processes when nothing is amiss: the probe's `rev-parse` (which also reads HEAD,
 * the ref and git's version) and one `hash-object --stdin-paths` that reads every file
 * before and after status, started at once; status; and, beside status, the probe's two
 * `config --list`. A branch whose ref is packed (no ref file) costs two reads more.
 *
 * @module
 */
import { gitSettled, runGit } from "../git.ts";
import { absoluteDir, HOST_OS, isShellPwd } from "./cwd.ts";
import { fingerprint } from "./fingerprint.ts";
import { readHeadOid, readHeadRef, reflogId } from "./head.ts";
import { locate } from "./location.ts";
import { abbreviations, branchValue, readSpelling, type Spelling } from "./branch.ts";
import { type TreeState, validateField } from "./fields.ts";
import { sameBytes } from "../encoding.ts";
import {
  at,
  CONFIG_REASON,
  environmentSettings,
  type First,
  homeOf,
  type Probe,
  type Probing,
  startProbe,
} from "./probe.ts";
import {
  absoluteFrom,
  blobIds,
  headFileText,
  type Reader,
  reflogsOf,
  startReader,
} from "./reader.ts";
import { GitError, type GitResult } from "../git_error.ts";

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

interface Moment {
  head: string;
  ref: string;
  status: GitResult;
  /** What `git rev-parse --abbrev-ref HEAD` printed for `ref`, when asked and clear. */
  abbrev: string | undefined;
}

/** What a capture read before status: HEAD, its ref, and the reflogs' ids. */
interface Before {
  head: string;
  ref: string;
  /** The seed's spelling of `ref`, when the first call gave a clear one. */
  abbrev: string | undefined;
  /** The reflogs' blob ids, one a line. */
  reflog: string;
  /** The reflogs read (absolute). */
  reflogs: string[];
}

/** What the reads after status found: HEAD, the ref it is attached to, the reflogs' ids. */
interface After {
  head: string;
  ref: string;
  reflog: string;
}

/** Where a capture's files are: the `HEAD` file and the common directory, absolute. */
interface Files {
  headFile: string;
  commonDir: string;
  reflogs(ref: string): string[];
}

function filesOf(where: Probe, base: string): Files {
  return {
    headFile: `${where.gitDir}/HEAD`,
    commonDir: absoluteFrom(base, where.commonDir),
    reflogs: (ref) => reflogsOf(where, ref).map((p) => absoluteFrom(base, p)),
  };
}

/**
 * HEAD, its ref and the reflogs before status. On the first attempt HEAD and the ref come
 * from the first call, and the reader reads the `HEAD` file with the reflogs: it must hold
 * what git writes for that ref (no chain of symbolic refs, no other ref). Otherwise, and
 * on a later attempt, HEAD and the ref are read apart first.
 */
async function readBefore(
  first: First | undefined,
  files: Files,
  reader: Reader | undefined,
  cwd: string | undefined,
): Promise<Before> {
  const fast = first?.head;
  if (fast && reader?.usable()) {
    const reflogs = files.reflogs(fast.ref);
    const ids = await reader.ask([files.headFile, ...reflogs]);
    const written = await blobIds(headFileText(fast.ref, fast.head));
    if (ids.length === reflogs.length + 1 && written.includes(ids[0]!)) {
      const abbrev = abbreviations(fast.ref).includes(fast.abbrev) ? fast.abbrev : undefined;
      return { head: fast.head, ref: fast.ref, abbrev, reflog: ids.slice(1).join("\n"), reflogs };
    }
  }
  const [ref, head] = await Promise.all([readHeadRef(cwd), readHeadOid(cwd)]);
  const reflogs = files.reflogs(ref);
  let reflog: string | undefined;
  if (reader?.usable()) {
    const ids = await reader.ask(reflogs);
    if (ids.length === reflogs.length) reflog = ids.join("\n");
  }
  return { head, ref, abbrev: undefined, reflog: reflog ?? await reflogId(reflogs, cwd), reflogs };
}

/**
 * The reads after status through the reader, in the order that keeps the guarantee: HEAD
 * first, then the reflogs, so what HEAD says held from the first reflog read to the
 * second. HEAD is the `HEAD` file (it must hold what git writes for the ref read before,
 * so that it names that ref, or when detached that id) and, for a branch, its ref file
 * (when it holds the id read before, the branch is there). A branch whose ref is packed
 * has no file (the reader stops there), and one whose file holds anything else is read
 * apart: HEAD's id, then the reflogs, each by a process of its own in that order.
 *
 * @returns What they found, or undefined when the reader cannot vouch for the ref (it
 *   stopped at once, the `HEAD` file holds anything else): then the caller reads apart.
 */
async function readAfter(
  reader: Reader | undefined,
  files: Files,
  before: Before,
  cwd: string | undefined,
): Promise<After | undefined> {
  if (!reader?.usable()) return undefined;
  const { ref, head, reflogs } = before;
  const refFile = ref === "HEAD" ? [] : [`${files.commonDir}/${ref}`];
  const ids = await reader.ask([files.headFile, ...refFile, ...reflogs]);
  if (ids.length === 0) return undefined;
  if (!(await blobIds(headFileText(ref, head))).includes(ids[0]!)) return undefined; // tether:guard f4-head-file
  // The HEAD file names the ref (when detached, holds the id itself).
  const held = ref === "HEAD" || (await blobIds(`${head}\n`)).includes(ids[1] ?? "");
  const answered = ids.length === 1 + refFile.length + reflogs.length;
  if (held && answered) return { head, ref, reflog: ids.slice(1 + refFile.length).join("\n") };
  const headAfter = held ? head : await readHeadOid(cwd);
  return { head: headAfter, ref, reflog: await reflogId(reflogs, cwd) };
}

/**
 * One attempt: HEAD, the branch and the reflogs are read, status starts once they have
 * been, and once status has ended the `HEAD` file, the reflogs and the branch are read
 * again.
 *
 * @param first The first call's answer, on the first attempt.
 * @param files Where HEAD's files are.
 * @param reader The capture's reader, if it started.
 * @param cwd Where to capture.
 * @param started Called once status has started.
 * @param spell Also read the seed's spelling of the branch (for a block).
 * @returns The moment, or undefined when HEAD moved.
 */
async function attempt(
  first: First | undefined,
  files: Files,
  reader: Reader | undefined,
  cwd: string | undefined,
  started: () => void,
  spell: boolean,
): Promise<Moment | undefined> {
  const reading = readBefore(first, files, reader, cwd);
  const before = await reading; // tether:guard f4-reflog-first
  // Every move of HEAD from here on is in a reflog read above.
  const running = runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV, keepReplaceObjects: true }); // parity with the bash recipe
  running.catch(() => {});
  started();
  // Inside the window the reflogs vouch for, so it speaks of the HEAD status saw.
  const spelling: Promise<Spelling | undefined> = spell && before.abbrev === undefined
    ? readSpelling(cwd)
    : Promise.resolve(undefined);
  let status: GitResult;
  try {
    status = await running;
  } finally {
    await spelling;
  }
  const { head, ref: attached, reflog } = before;
  let after = await readAfter(reader, files, before, cwd);
  if (!after) {
    const [headAfter, refAfter] = await Promise.all([readHeadOid(cwd), readHeadRef(cwd)]);
    after = { head: headAfter, ref: refAfter, reflog: await reflogId(before.reflogs, cwd) };
  }
  const still = after.reflog === reflog && after.head === head && after.ref === attached; // tether:guard f4-still
  if (!still) return undefined;
  // Only an answer about the ref read here spells it; otherwise tether's own spelling stands.
  const spelled = await spelling;
  const abbrev = before.abbrev ?? (spelled?.ref === attached ? spelled.abbrev : undefined);
  return { head, ref: attached, status, abbrev: spell ? abbrev : undefined };
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

/** Called when a capture's first `git status` has started (or the capture has ended without one). */
type Started = () => void;

/**
 * Take a capture.
 *
 * @param cwd Where (default: the current directory).
 * @param started Called once the first status has started, or the capture ended without.
 * @param spell Spell the branch and the current directory as the seed's commands print them.
 * @param probing The probe of `cwd`, when it is already under way.
 * @returns The live tree.
 */
async function capture(
  cwd: string | undefined,
  started: Started = () => {},
  spell = false,
  probing: Probing = startProbe(cwd),
): Promise<LiveTree> {
  // At once: the probe's first call and the reader; the two configuration readings once
  // status has started (they are needed only after it). Status waits only for the first
  // call and the reader's first answer. All read-only, so they may run before the
  // environment has been cleared; nothing read is used unless it and git's version check out.
  const reader = startReader(cwd);
  let checks: Promise<Probe> | undefined;
  const checked = () => {
    if (!checks) {
      checks = probing.confirm();
      checks.catch(() => {});
    }
    return checks;
  };
  const onStatus = () => {
    checked();
    started();
  };
  const base = cwd ?? Deno.cwd();
  try {
    for (let n = 1; n <= CAPTURE_ATTEMPTS; n++) {
      let moment: Moment | undefined;
      try {
        const first = await probing.first;
        const files = filesOf(first.where, base);
        moment = await attempt(n === 1 ? first : undefined, files, reader, cwd, onStatus, spell);
      } catch (error) {
        await checked(); // a git too old, or an environment that points git elsewhere, first
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
    await Promise.all([reader?.close(), checks?.catch(() => {})]);
  }
  throw new GitError(
    "failed",
    `HEAD kept moving during capture (${CAPTURE_ATTEMPTS} attempts): the tree is changing`,
  );
}

/**
 * Refuse, before anything else runs, an environment that points git away from the
 * current directory (see `ENVIRONMENT_REASON`): callers that write (a seed capture writes
 * objects and a private index) call it first, so a refused environment writes nothing
 * anywhere.
 *
 * @throws {GitError} when the environment points git elsewhere, or git fails.
 */
export async function confirmEnvironment(): Promise<void> {
  // verify's early capture has probed this process's environment here already: its answer
  // stands, and the seed's work starts without a second probe.
  await (earlyProbe ?? startProbe(undefined)).confirm();
}

let early: Promise<LiveTree> | undefined;
/** The probe of {@linkcode early}, kept for {@linkcode confirmEnvironment}. */
let earlyProbe: Probing | undefined;

/**
 * Start the capture now, so that it runs while the caller loads the rest of its code and
 * reads its input. The next {@linkcode captureLive} uses it; {@linkcode settleCapture}
 * waits for it when nothing did.
 *
 * @returns Settles once the capture's `git status` has started (or the capture ended
 *   without one): loading and reading then run beside status, not before it.
 */
export function prestartCapture(): Promise<void> {
  if (early) return Promise.resolve();
  const { promise, resolve } = Promise.withResolvers<void>();
  earlyProbe = startProbe(undefined);
  early = capture(undefined, resolve, false, earlyProbe);
  early.catch(() => {}); // awaited later; never an unhandled rejection
  return promise;
}

/**
 * Wait until the early capture (used or not) and every git process this process started
 * have ended: a binary calls it before it exits, so no git it started outlives it.
 */
export async function settleCapture(): Promise<void> {
  await early?.catch(() => {});
  await gitSettled();
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
   * agrees. A git call more at most; verify, which compares refs and locations, need not ask.
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
  if (options.cwd !== undefined) return capture(captureDirectory(options), undefined, spell);
  if (spell) return capture(undefined, undefined, true); // never verify's early capture
  const live = early ?? capture(undefined);
  early = undefined;
  return live;
}
