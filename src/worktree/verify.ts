/**
 * verify for a v2 block: read the facts of the child's worktree through git, decide with
 * {@linkcode decideWorktree}, and print the path's text. A bounded number of git
 * processes whatever the tree holds.
 *
 * @module
 */
import { captureLive, type LiveTree } from "../handshake/capture.ts";
import { locate } from "../handshake/location.ts";
import { HOST_OS, nativeCwd } from "../handshake/cwd.ts";
import { parseIssuedAt } from "../handshake/fields.ts";
import { unverifiedText, verifiedLine } from "../handshake/finding.ts";
import { runGit } from "../git.ts";
import { runHistory } from "../gate/objects.ts";
import { readSeed, seedId } from "../seed/commit.ts";
import { captureState, changedPaths, type TreeState } from "../seed/state.ts";
import { HARNESS, parseV2Block, type V2Handshake } from "../handshake/v2/block.ts";
import { decideWorktree, type WorktreeFacts } from "./decide.ts";
import { worktreeFinding } from "./finding.ts";
import { type BaseRelation, relation } from "./plan.ts";
import { carriedFingerprint } from "./carried_status.ts";
import { showPath } from "../show.ts";
import { type RawEntry } from "../context/raw_tree.ts";
import { objectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/** Options for {@linkcode verifyV2}. */
export interface VerifyV2Options {
  /** `--json`. */
  json: boolean;
  /** `--max-age` in milliseconds. */
  maxAgeMs?: number;
}

/** With `--max-age`, how far in the future a block may be dated. */
const FUTURE_TOLERANCE_MS = 5 * 60_000;
const EXIT = { match: 0, mismatch: 1, error: 3 } as const;

/**
 * Top level, git dir and common dir of a directory, absolute. For another directory than
 * the current one (the parent's), git starts with none of the caller's environment and in
 * `/`, so what it reports is what that directory says, never a `GIT_DIR` or
 * `GIT_WORK_TREE` the child carries.
 */
async function repoDirs(cwd?: string): Promise<[string, string, string] | undefined> {
  const r = await runGit(
    ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
    {
      parse: true,
      allowFailure: true,
      ...(cwd === undefined ? {} : { cwd, cleanEnv: true, neutralStart: true }), // tether:guard wt-parent-clean-env
    },
  ).catch(() => undefined);
  if (r === undefined || r.code !== 0) return undefined;
  const lines = new TextDecoder().decode(r.stdout).replace(/\n$/, "").split("\n");
  return lines.length === 3 ? lines as [string, string, string] : undefined;
}

/** Whether `gitDir` is the admin dir of a linked worktree of `commonDir`. */
function linkedGitDir(gitDir: string, commonDir: string): boolean {
  const prefix = `${commonDir.replace(/\/$/, "")}/worktrees/`;
  const id = gitDir.startsWith(prefix) ? gitDir.slice(prefix.length) : "";
  return id !== "" && !id.includes("/"); // tether:guard wt-linked-named
}

async function baseRelation(top: string, parentHead: string): Promise<BaseRelation> {
  // Parentage as the objects say it: no graft, shallow file or commit-graph (runHistory).
  const mb = await runHistory(["merge-base", "HEAD", parentHead], { cwd: top, allowFailure: true });
  if (mb.code === 1) return relation(1, 1, false);
  if (mb.code !== 0) return { kind: "unknown" };
  const counts = await runHistory(
    ["rev-list", "--left-right", "--count", `HEAD...${parentHead}`],
    { cwd: top, parse: true },
  );
  const [ahead = 0, behind = 0] = new TextDecoder().decode(counts.stdout).trim().split(/\s+/)
    .map(Number);
  return relation(ahead, behind, true);
}

async function union(lists: Promise<string[]>[]): Promise<string[]> {
  return [...new Set((await Promise.all(lists)).flat())];
}

/** Gather the facts of the current directory's worktree for a worktree-mode block. */
async function gather(block: V2Handshake, live: LiveTree): Promise<WorktreeFacts> {
  const dirs = await repoDirs();
  if (!dirs) throw new GitError("failed", "Cannot read the worktree's top level");
  const [top, gitDir, commonDir] = dirs;
  const harness = block.worktree_path === HARNESS;
  const format = await objectFormat();
  const files = new Map<string, RawEntry>();
  const [state, seedState, parentDirs, pathLoc, cwdLoc] = await Promise.all([
    captureState(top, { files }),
    readSeed(top, block.seed, format).catch(() => undefined),
    harness ? repoDirs(nativeCwd(block.parent_cwd, HOST_OS)) : Promise.resolve(undefined),
    harness ? Promise.resolve(undefined) : locate(block.worktree_path!),
    harness ? Promise.resolve(undefined) : locate(block.worktree_cwd!),
  ]);
  const stateSeed = await seedId(state, format);
  const base = state.head === block.parent_head
    ? relation(0, 0, true)
    : await baseRelation(top, block.parent_head);
  let differing: string[] = [];
  let missing: string[] = [];
  if (seedState !== undefined && stateSeed !== block.seed) {
    const [changed, parentWork] = await Promise.all([
      union([
        changedPaths(top, seedState.worktree, state.worktree),
        changedPaths(top, seedState.index, state.index),
      ]),
      union([
        changedPaths(top, `${seedState.head}^{tree}`, seedState.worktree),
        changedPaths(top, `${seedState.head}^{tree}`, seedState.index),
      ]),
    ]);
    differing = changed;
    missing = changed.filter((p) => parentWork.includes(p));
  }
  // Directories are the same only when git names them so (equal text is no proof).
  const here = live.location;
  return {
    head: live.parent_head,
    branch: live.parent_branch,
    headRef: live.headRef,
    cwd: live.parent_cwd,
    // As the spawn took the parent's: a submodule's own working tree is not carried.
    fingerprint: await carriedFingerprint(
      live.status,
      [...files].filter(([, e]) => e.mode === "160000").map(([path]) => path),
    ),
    top,
    // A linked worktree's git dir is `<common dir>/worktrees/<id>`: named so, not merely
    // different from the common dir.
    linked: linkedGitDir(gitDir, commonDir),
    // Unknown (undefined) when the parent's directory cannot be resolved: decide then
    // refuses the match, it never skips the check.
    parentsOwn: parentDirs === undefined
      ? undefined
      : parentDirs[0] === top || parentDirs[1] === gitDir,
    sameRepository: parentDirs === undefined ? undefined : parentDirs[2] === commonDir,
    samePath: !harness && pathLoc !== undefined && pathLoc === `${top}/`,
    sameCwd: !harness && cwdLoc !== undefined && here !== undefined && cwdLoc === here,
    state,
    stateSeed,
    seedState,
    base,
    differing,
    missing,
  };
}

function stateOf(s: TreeState | undefined) {
  return s === undefined ? null : { head: s.head, index: s.index, worktree: s.worktree };
}

/**
 * Run Step 0 for a prompt whose first block is v2.
 *
 * @param prompt The normalised prompt.
 * @param options `--json` and `--max-age`.
 * @returns The text for stdout and the exit code.
 *
 * Kept whole: parse, gather the facts at one moment, decide and render are four short stages,
 * but they share the block, the live capture and the error paths of each.
 */
export async function verifyV2(
  prompt: string,
  options: VerifyV2Options,
): Promise<{ text: string; code: number }> {
  const parsed = parseV2Block(prompt);
  const base = {
    version: 2,
    expected: null as V2Handshake | null,
    observed: null as Record<string, unknown> | null,
    diverged: [] as string[],
    reason: null as string | null,
  };
  const unverified = (reason: string, expected: V2Handshake | null = null) => {
    const doc = {
      status: "error",
      tag: "environment-unverified",
      ...base,
      expected,
      reason,
    };
    return {
      text: options.json ? `${JSON.stringify(doc, null, 2)}\n` : unverifiedText(reason),
      code: EXIT.error,
    };
  };
  if (parsed.kind === "error") return unverified(`handshake block unparseable: ${parsed.reason}`);
  const block = parsed.handshake;
  if (block.workspace_mode !== "worktree") {
    return unverified("v2 shared mode is not verified by this build", block);
  }
  if (options.maxAgeMs !== undefined) {
    const issued = parseIssuedAt(block.handshake_issued_at);
    if (issued === undefined) { // a date that cannot be read is never young enough
      return unverified(`handshake_issued_at cannot be read (${block.handshake_issued_at})`, block);
    }
    const age = Date.now() - issued;
    if (age < -FUTURE_TOLERANCE_MS) {
      return unverified(`handshake is issued in the future (${block.handshake_issued_at})`, block);
    }
    if (age > options.maxAgeMs) {
      return unverified(
        `handshake is older than the maximum age (issued ${block.handshake_issued_at})`,
        block,
      );
    }
  }
  let facts: WorktreeFacts;
  try {
    facts = await gather(block, await captureLive());
  } catch (error) {
    if (error instanceof GitError) {
      return unverified(`live git verification failed: ${error.message}`, block);
    }
    throw error;
  }
  const decision = decideWorktree(block, facts);
  const status = decision.diverged.length === 0 ? "match" : "mismatch";
  const observed = {
    parent_head: facts.head,
    parent_branch: facts.branch,
    parent_cwd: facts.cwd,
    parent_dirty_fingerprint: facts.fingerprint,
    seed: facts.stateSeed,
    worktree_path: facts.top,
    worktree_branch: facts.branch,
    worktree_cwd: facts.cwd,
    linked_worktree: facts.linked,
    state: stateOf(facts.state),
  };
  if (options.json) {
    const doc = {
      status,
      tag: status === "match" ? "environment-verified" : "environment-divergence",
      ...base,
      expected: block,
      observed,
      diverged: decision.diverged,
      seed_state: stateOf(facts.seedState),
      base: facts.base,
      missing_paths: facts.missing,
      differing_paths: facts.differing,
      problems: decision.problems,
    };
    return { text: `${JSON.stringify(doc, null, 2)}\n`, code: EXIT[status] };
  }
  if (status === "match") return { text: verifiedLine(facts.head, facts.branch), code: 0 };
  const text = worktreeFinding(
    {
      head: block.parent_head,
      branch: block.worktree_branch!,
      cwd: block.worktree_cwd!,
      fingerprint: block.parent_dirty_fingerprint,
      seed: block.seed,
      worktree: block.worktree_path!,
    },
    {
      head: facts.head,
      branch: showPath(facts.branch),
      cwd: showPath(facts.cwd),
      fingerprint: facts.fingerprint,
      seed: facts.stateSeed,
      worktree: showPath(facts.top),
    },
    decision.diverged,
    decision.problems,
  );
  return { text, code: EXIT.mismatch };
}
