/**
 * Checking a child's evidence against the tree: `commit` must exist and be a commit,
 * `file` must exist in the worktree (with the given blob id, when one is given); any
 * other kind cannot be checked and is `unverified`, never `verified`.
 *
 * @module
 */
import { jailRelativePath } from "../contract/jail.ts";
import { decodePath, encodePath } from "../paths.ts";
import type { SubagentEvidence } from "../contract/schemas.ts";
import {
  type CommitRead,
  inspectWorktreeFiles,
  notReachableFrom,
  readCommits,
  type WorktreeFile,
} from "./repo.ts";
import { isFullOid, type ObjectFormat } from "../git_objects.ts";

/** Why gate cannot tell whether a path changed, for a reason or an evidence note. */
export const UNKNOWN_WHY =
  "its bytes are not the committed blob's, and gate cannot tell them from what a checkout wrote: the line-end, encoding or filter settings changed since spawn, a filter decides what it holds, or they are what a checkout under other settings writes";

/** What was true at spawn, to tell new evidence from old (`--since`). */
export interface SpawnState {
  /** The spawn's HEAD, or null on an unborn branch. */
  head: string | null;
  /** The spawn's time, seconds since the epoch (commit times have one-second steps). */
  time: number;
  /** Paths whose content changed since spawn. */
  changed: ReadonlySet<string>;
  /** Paths known to have held something at spawn (a status entry, or the spawn HEAD). */
  existed: ReadonlySet<string>;
  /**
   * Paths gate cannot tell changed or unchanged: bytes that differ from the spawn HEAD's
   * blob under conversion settings that changed since spawn, or under a filter.
   */
  unknown?: ReadonlySet<string>;
  /**
   * The commits made since spawn, when the caller knows them exactly (`gate --worktree`:
   * the child's commits since its seed). Then a commit is new only when it is one of
   * these, whatever its date, and `time` is not used.
   */
  commits?: ReadonlySet<string>;
}

/**
 * What gate concluded about one evidence item. `preexisting` (only with `--since`): true,
 * but already so at spawn (a commit reachable from the spawn's HEAD or older than the
 * spawn, a file whose content did not change), so it proves nothing the child did.
 */
export type EvidenceStatus = "verified" | "preexisting" | "refuted" | "unverified";

/** One checked evidence item, as `--json` prints it. */
export interface CheckedEvidence {
  /** The child's kind. */
  kind: string;
  /** The child's ref. */
  ref: string;
  /** The verdict on it. */
  status: EvidenceStatus;
}

/** A checked item and, when it is not verified, why. */
export interface EvidenceFinding extends CheckedEvidence {
  /** Why it was refuted or left unverified. */
  why?: string;
}

/**
 * Whether gate can check an evidence kind at all.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals([isCheckable("commit"), isCheckable("file"), isCheckable("test")], [true, true, false]);
 * ```
 * @param kind The evidence kind.
 * @returns True for `commit` and `file`.
 */
export function isCheckable(kind: string): boolean {
  return kind === "commit" || kind === "file";
}

/** How file evidence paths are looked at: through git in the worktree, by default. */
export type FileInspector = (
  top: string,
  paths: readonly string[],
) => Promise<Map<string, WorktreeFile>>;

/**
 * Check every evidence item. Git is asked once for all commits and, for files, a bounded
 * number of times (batched pathspecs, per-path type checks at most 8 at a time).
 *
 * @param evidence The child's evidence.
 * @param repo Top level and object format, or null outside git (checkable kinds then
 *   cannot be checked, and the caller decides what that means).
 * @param spawn What was true at spawn: the spawn snapshot's record with `--since`, the
 *   child's seed and its changes and commits since with `--worktree`.
 * @param inspect How file paths are looked at (`gate --worktree` passes the child's raw
 *   capture, so nothing the child configured runs).
 * @returns One finding per item, in order.
 */
export async function checkEvidence(
  evidence: readonly SubagentEvidence[],
  repo: { top: string; format: ObjectFormat },
  spawn?: SpawnState,
  inspect: FileInspector = inspectWorktreeFiles,
): Promise<EvidenceFinding[]> {
  const commits = [
    ...new Set(
      evidence.filter((e) => e.kind === "commit" && isFullOid(e.ref, repo.format)).map((e) =>
        e.ref
      ),
    ),
  ];
  const paths = new Map<string, string | Error>();
  for (const e of evidence) {
    if (e.kind !== "file" || paths.has(e.ref)) continue;
    paths.set(e.ref, evidencePath(e.ref));
  }
  const wanted = [...paths.values()].filter((p): p is string => typeof p === "string");
  const [commitsRead, files] = await Promise.all([
    readCommits(repo.top, commits, repo.format),
    wanted.length > 0
      ? inspect(repo.top, wanted)
      : Promise.resolve(new Map<string, WorktreeFile>()),
  ]);
  const ages = await commitAges(repo.top, commits, commitsRead, spawn);
  return evidence.map((item): EvidenceFinding => {
    const { kind, ref } = item;
    if (kind === "commit") return commitFinding(item, commitsRead, ages, repo.format);
    if (kind === "file") return fileFinding(item, paths.get(ref), files, spawn);
    return {
      kind,
      ref,
      status: "unverified",
      why: `kind ${JSON.stringify(kind)} cannot be checked`,
    };
  });
}

/** How old the cited commits are against the spawn. */
interface CommitAges {
  /** The commits made since spawn. */
  fresh: ReadonlySet<string>;
  /** The commits dated after gate's clock, whose age cannot be told. */
  future: ReadonlySet<string>;
  /** The commits the caller knows were made since spawn, when it knows them exactly. */
  known: ReadonlySet<string> | undefined;
}

/**
 * Which cited commits are new since spawn: committed at or after the spawn's second and not
 * reachable from the spawn's HEAD, or, where the caller knows them, among the commits made
 * since. (A commit's time is inside its checked content, so it cannot be forged for an
 * existing commit.)
 */
async function commitAges(
  top: string,
  commits: readonly string[],
  commitsRead: ReadonlyMap<string, CommitRead>,
  spawn: SpawnState | undefined,
): Promise<CommitAges> {
  const now = Math.floor(Date.now() / 1000);
  const known = spawn?.commits;
  const future = new Set(commits.filter((oid) => {
    const c = commitsRead.get(oid);
    return spawn !== undefined && known === undefined && c?.kind === "commit" &&
      c.time > now; // guard: future date
  }));
  const recent = commits.filter((oid) => {
    const c = commitsRead.get(oid);
    return c?.kind === "commit" &&
      (spawn === undefined || known !== undefined || c.time >= spawn.time) && // guard: date
      !future.has(oid);
  });
  const fresh = spawn === undefined
    ? new Set(recent)
    : known !== undefined
    ? new Set(recent.filter((oid) => known.has(oid))) // tether:guard wt-new-commit
    : await notReachableFrom(top, recent, spawn.head);
  return { fresh, future, known };
}

/** What a commit evidence item is: new since spawn, preexisting, of unknown age, or refuted. */
function commitFinding(
  item: SubagentEvidence,
  commitsRead: ReadonlyMap<string, CommitRead>,
  ages: CommitAges,
  format: ObjectFormat,
): EvidenceFinding {
  const { kind, ref } = item;
  const { fresh, future, known } = ages;
  const quoted = JSON.stringify(ref);
  if (!isFullOid(ref, format)) {
    return {
      kind,
      ref,
      status: "refuted",
      why: `commit ${quoted} is not a full ${format} object id`,
    };
  }
  const read = commitsRead.get(ref) ?? { kind: "missing" };
  if (read.kind === "commit") {
    if (fresh.has(ref)) return { kind, ref, status: "verified" }; // guard: new commit
    if (future.has(ref)) {
      return {
        kind,
        ref,
        status: "unverified",
        why: `commit ${quoted} is dated after gate's clock, so its age cannot be told`,
      };
    }
    return {
      kind,
      ref,
      status: "preexisting",
      why: known !== undefined
        ? `commit ${quoted} is not one the child made since its seed`
        : `commit ${quoted} predates the spawn`,
    };
  }
  return {
    kind,
    ref,
    status: "refuted",
    why: read.kind === "missing"
      ? `commit ${quoted} does not exist`
      : read.kind === "forged"
      ? `commit ${quoted} does not hash to its id (the object store was altered)`
      : `${quoted} is a ${read.type}, not a commit`,
  };
}

/** What a file evidence item is: a regular file changed since spawn, preexisting, or not. */
function fileFinding(
  item: SubagentEvidence,
  path: string | Error | undefined,
  files: ReadonlyMap<string, WorktreeFile>,
  spawn: SpawnState | undefined,
): EvidenceFinding {
  const { kind, ref } = item;
  const quoted = JSON.stringify(ref);
  if (path instanceof Error || path === undefined) {
    return { kind, ref, status: "refuted", why: `file ${path?.message ?? quoted}` };
  }
  const found = files.get(path) ?? { kind: "missing" };
  if (found.kind === "nested") {
    return {
      kind,
      ref,
      status: "unverified",
      why: `file ${quoted} is inside the submodule or nested repository ${
        JSON.stringify(found.repo)
      }, which gate does not look into`,
    };
  }
  if (found.kind !== "regular") {
    return { kind, ref, status: "refuted", why: `file ${quoted} ${NOT_REGULAR[found.kind]}` };
  }
  const blob = found.oid;
  if (item.oid !== undefined && item.oid !== blob) {
    return {
      kind,
      ref,
      status: "refuted",
      why: `file ${quoted} has blob ${blob}, not ${item.oid}`,
    };
  }
  if (spawn?.unknown?.has(path)) { // tether:guard gate-evidence-unknown
    return {
      kind,
      ref,
      status: "unverified",
      why: `gate cannot tell whether file ${quoted} changed since spawn (${UNKNOWN_WHY})`,
    };
  }
  if (spawn && !spawn.changed.has(path)) { // guard: changed file
    // Only a file known to exist at spawn is preexisting; an ignored one was not seen.
    return spawn.existed.has(path) // guard: known at spawn
      ? { kind, ref, status: "preexisting", why: `file ${quoted} is unchanged since spawn` }
      : {
        kind,
        ref,
        status: "unverified",
        why: `file ${quoted} is ignored by git, so gate cannot tell whether it is new`,
      };
  }
  return { kind, ref, status: "verified" };
}

/** Why a path that is not a regular file in the worktree is refuted (nothing about targets). */
const NOT_REGULAR: Record<Exclude<WorktreeFile["kind"], "regular" | "nested">, string> = {
  missing: "does not exist in the worktree",
  symlink: "is a symbolic link, not a regular file",
  special: "is not a regular file",
  unchecked: "is marked assume-unchanged or skip-worktree, so git does not check it",
};

/**
 * A file evidence path, or a claimed path: lexically inside the top level, not inside
 * `.git` (any case, trailing dots and spaces ignored), and one name exactly (a lone
 * surrogate that is not a byte escape of `decodePath` would be written as another name).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(evidencePath("./src/a.ts"), "src/a.ts");
 * assertEquals(evidencePath("sub/.GIT/config") instanceof Error, true);
 * assertEquals(evidencePath("x\udcff"), "x\udcff");
 * assertEquals(evidencePath("x\ud800") instanceof Error, true);
 * ```
 * @param ref The child's ref.
 * @returns The normalised path, or the reason it is refused.
 */
export function evidencePath(ref: string): string | Error {
  let path: string;
  try {
    path = jailRelativePath(ref);
  } catch (error) {
    return error as Error;
  }
  if (path.split("/").some((part) => part.toLowerCase().replace(/[. ]+$/, "") === ".git")) {
    return new Error(`${JSON.stringify(ref)} is inside a .git directory`);
  }
  const bytes = decodePath(encodePath(path));
  if (bytes !== path) { // tether:guard pb-path-one-name
    return new Error(
      `${JSON.stringify(ref)} is not a name git prints (its bytes name ${JSON.stringify(bytes)})`,
    );
  }
  return path;
}
