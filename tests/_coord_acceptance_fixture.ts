/**
 * The coord acceptance scenario (seed 003, tests A–I): one real repository with a main
 * worktree (Primary) and three linked worktrees (W1, W2, W3), a canonical `STATUS` on
 * `main`, and the commits the attacks need — private drafts, a frozen result per blind
 * lane, later drafts, a tag-only commit, a renamed and a deleted branch, merges, a commit
 * Primary made on top of a lane's commit, and a commit no reflog records.
 *
 * Ownership in coord is decided by the worktree HEAD reflogs, so every commit here is made
 * in the worktree that should own it.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { commitAll, fixtureIdentity, git, tempDir, writeFiles } from "./_helpers.ts";

/** Lane names of the scenario. */
export type LaneName = "Primary" | "W1" | "W2" | "W3";

/** Where the linked worktrees live, relative to the main worktree (ignored by `.gitignore`). */
export const LANE_DIR = "lanes";

/** The commits of the scenario, by role. */
export interface ScenarioCommits {
  /** The public base every lane may see (the initial commit). */
  base: string;
  /** The first STATUS commit on `main`, made by Primary. */
  status: string;
  /** W1's early private draft (parent of SHA-A). */
  a0: string;
  /** SHA-A: W1's frozen result. */
  a: string;
  /** SHA-C: W1's later draft on top of SHA-A (the tip of `w1`). */
  c: string;
  /** W2's early private draft (parent of SHA-B). */
  b0: string;
  /** SHA-B: W2's frozen result. */
  b: string;
  /** SHA-D: W2's later draft on top of SHA-B (the tip of `w2`). */
  d: string;
  /** A W1 commit kept alive only by a tag with a misleading name. */
  tagOnly: string;
  /** A W1 commit whose branch was renamed to look like W2's (`w2-side`). */
  renamed: string;
  /** A W1 commit whose branch was deleted (only W1's reflog still names it). */
  deleted: string;
  /** W2's merge of SHA-A into a W2 branch (`w2-merge`). */
  w2Merge: string;
  /** Primary's merge of SHA-A on branch `integrate`. */
  primaryMerge: string;
  /** A commit Primary made on top of SHA-A (detached, then left behind). */
  primaryOnA: string;
  /** A commit on top of SHA-A that no reflog records (`git commit-tree`), Primary's side. */
  ghostOnA: string;
  /** W3's own commit. */
  w3: string;
}

/** A built scenario. */
export interface Scenario {
  /** The temp directory holding everything. */
  root: string;
  /** Worktree path of each lane (Primary is the main worktree). */
  dir: Record<LaneName, string>;
  /** The shared git directory (`<primary>/.git`). */
  commonDir: string;
  /** Commits by role. */
  sha: ScenarioCommits;
  /** The tag that alone keeps {@linkcode ScenarioCommits.tagOnly} alive. */
  tag: string;
  /** Path of the bare remote `origin`, when built with one. */
  remote?: string;
}

/** Canonical policy written to `STATUS`. */
export interface Policy {
  /** Lanes listed on the `blind:` line. */
  blind: string[];
  /** `released:` lines as [lane, full SHA]. */
  released: Array<[string, string]>;
  /** Extra lane lines as [name, path relative to the main worktree]. */
  extraLanes?: Array<[string, string]>;
}

/**
 * Render a STATUS file in SPEC §6 format, with unrelated project lines around it (coord
 * must ignore lines it does not understand).
 *
 * @param base The base commit.
 * @param policy Blind set, releases, extra lanes.
 * @returns The file text.
 */
export function renderStatus(base: string, policy: Policy): string {
  const lines = [
    "# STATUS — canonical project state (owned by Primary)",
    "experiment: E001 blind comparison",
    "",
    `lane: W1 ${LANE_DIR}/W1`,
    `lane: W2 ${LANE_DIR}/W2`,
    `lane: W3 ${LANE_DIR}/W3`,
    ...(policy.extraLanes ?? []).map(([name, path]) => `lane: ${name} ${path}`),
    `base: ${base}`,
  ];
  if (policy.blind.length > 0) lines.push(`blind: ${policy.blind.join(" ")}`);
  for (const [lane, sha] of policy.released) lines.push(`released: ${lane} ${sha}`);
  lines.push("", "owner-decision: none pending", "");
  return lines.join("\n");
}

/**
 * Commit a new STATUS on `main` in the Primary worktree (the canonical way to change
 * policy: Primary edits STATUS and commits).
 *
 * @param s The scenario.
 * @param policy The new policy.
 * @returns The new tip of `main`.
 */
export async function commitStatus(s: Scenario, policy: Policy): Promise<string> {
  await writeFiles(s.dir.Primary, { STATUS: renderStatus(s.sha.base, policy) });
  await git(s.dir.Primary, ["add", "STATUS"]);
  await git(s.dir.Primary, ["commit", "-q", "-m", "STATUS: policy update"]);
  return await git(s.dir.Primary, ["rev-parse", "HEAD"]);
}

/** The initial policy: W1 and W2 blind, nothing released. */
export const SEALED: Policy = { blind: ["W1", "W2"], released: [] };

/**
 * Commit files in a worktree.
 *
 * @param dir Worktree.
 * @param files Files to write.
 * @param message Commit message.
 * @returns The new commit.
 */
async function commitIn(
  dir: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  await writeFiles(dir, files);
  return await commitAll(dir, message);
}

/** This module's scenario without a remote, built once; tests get copies of it. */
let template: Promise<Scenario> | undefined;

/**
 * A scenario of one's own. Without a remote it is a copy of one built once per test
 * module (the same commits, reflogs and worktrees, made by the same git calls), which is
 * far cheaper than replaying the 70 git calls for every test; with one it is built anew.
 *
 * @param options `remote`: also create a bare `origin` and push `main` to it.
 * @returns The scenario.
 */
export async function buildScenario(options: { remote?: boolean } = {}): Promise<Scenario> {
  if (options.remote) return await replayScenario(options);
  template ??= replayScenario();
  return await copyScenario(await template);
}

/**
 * Copy a scenario's whole temp directory and point the copied worktrees at each other
 * (git records a linked worktree by absolute path, both ways).
 *
 * @param from A scenario without a remote.
 * @returns The copy, with the same commits.
 */
async function copyScenario(from: Scenario): Promise<Scenario> {
  const root = await tempDir("tether-coord-acc-");
  await copyDir(from.root, root);
  const moved = (path: string) => {
    if (!path.startsWith(from.root)) throw new Error(`${path} is outside ${from.root}`);
    return root + path.slice(from.root.length);
  };
  const admin = join(moved(from.commonDir), "worktrees");
  for await (const entry of Deno.readDir(admin)) {
    // <common dir>/worktrees/<name>/gitdir names <worktree>/.git, which names the admin dir.
    const gitdirFile = join(admin, entry.name, "gitdir");
    const dotGit = moved((await Deno.readTextFile(gitdirFile)).trim());
    await Deno.writeTextFile(gitdirFile, `${dotGit}\n`);
    await Deno.writeTextFile(dotGit, `gitdir: ${join(admin, entry.name)}\n`);
  }
  const dir = Object.fromEntries(
    Object.entries(from.dir).map(([lane, path]) => [lane, moved(path)]),
  ) as Record<LaneName, string>;
  return { ...from, root, dir, commonDir: moved(from.commonDir), sha: { ...from.sha } };
}

/** Copy a directory tree (files keep their mode). */
async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  const work: Promise<void>[] = [];
  for await (const entry of Deno.readDir(from)) {
    const [a, b] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory) work.push(copyDir(a, b));
    else if (entry.isSymlink) work.push(Deno.readLink(a).then((target) => Deno.symlink(target, b)));
    else work.push(Deno.copyFile(a, b));
  }
  await Promise.all(work);
}

/**
 * Build the scenario from nothing. About 70 git calls; no coord call.
 *
 * @param options `remote`: also create a bare `origin` and push `main` to it.
 * @returns The scenario.
 */
async function replayScenario(options: { remote?: boolean } = {}): Promise<Scenario> {
  const root = await tempDir("tether-coord-acc-");
  const P = join(root, "primary");
  await Deno.mkdir(P);
  const dir: Record<LaneName, string> = {
    Primary: P,
    W1: join(P, LANE_DIR, "W1"),
    W2: join(P, LANE_DIR, "W2"),
    W3: join(P, LANE_DIR, "W3"),
  };
  await git(P, ["init", "-q", "-b", "main"]);
  await fixtureIdentity(P, { "tag.gpgsign": "false", "gc.auto": "0" });
  const base = await commitIn(
    P,
    { "README.md": "# E001\n", ".gitignore": `/${LANE_DIR}/\n`, "problem.md": "Prove X.\n" },
    "base: the problem",
  );
  await writeFiles(P, { STATUS: renderStatus(base, SEALED) });
  await git(P, ["add", "STATUS"]);
  await git(P, ["commit", "-q", "-m", "STATUS: E001 lanes, W1 and W2 blind"]);
  const status = await git(P, ["rev-parse", "HEAD"]);
  for (const lane of ["W1", "W2", "W3"] as const) {
    await git(P, ["worktree", "add", "-q", "-b", lane.toLowerCase(), join(LANE_DIR, lane), "main"]);
  }
  const { W1, W2, W3 } = dir;

  // W1: private draft, frozen result SHA-A, then side commits (tag-only, renamed, deleted).
  const a0 = await commitIn(
    W1,
    { "proof/w1.md": "W1 draft zero: lemma 1 only\n" },
    "W1 draft zero",
  );
  const a = await commitIn(
    W1,
    { "proof/w1.md": "W1 frozen: lemma 1 and lemma 2\n" },
    "W1 frozen result",
  );
  const tag = "release-W2-approved";
  await git(W1, ["checkout", "-q", "-b", "w1-scratch"]);
  const tagOnly = await commitIn(
    W1,
    { "proof/w1-tagonly.md": "W1 tag-only secret\n" },
    "W1 tag-only",
  );
  await git(W1, ["tag", tag]);
  await git(W1, ["checkout", "-q", "w1"]);
  await git(W1, ["branch", "-q", "-D", "w1-scratch"]);
  await git(W1, ["checkout", "-q", "-b", "w1-side", a]);
  const renamed = await commitIn(W1, { "proof/w1-side.md": "W1 side lemma\n" }, "W1 side lemma");
  await git(W1, ["checkout", "-q", "w1"]);
  await git(W1, ["branch", "-m", "w1-side", "w2-side"]);
  await git(W1, ["checkout", "-q", "-b", "w1-doomed", a]);
  const deleted = await commitIn(
    W1,
    { "proof/w1-doomed.md": "W1 abandoned idea\n" },
    "W1 abandoned idea",
  );
  await git(W1, ["checkout", "-q", "w1"]);
  await git(W1, ["branch", "-q", "-D", "w1-doomed"]);
  const c = await commitIn(
    W1,
    { "proof/w1.md": "W1 later draft: lemma 3 attempt\n" },
    "W1 later draft",
  );

  // W2: private draft, frozen result SHA-B, later draft SHA-D; it also peeks at W1's branch
  // and merges SHA-A into a side branch (neither makes SHA-A W2's).
  const b0 = await commitIn(W2, { "proof/w2.md": "W2 draft zero: induction\n" }, "W2 draft zero");
  const b = await commitIn(
    W2,
    { "proof/w2.md": "W2 frozen: induction and bound\n" },
    "W2 frozen result",
  );
  await git(W2, ["checkout", "-q", "--detach", "w1"]);
  await git(W2, ["checkout", "-q", "--detach", a]);
  await git(W2, ["checkout", "-q", "-b", "w2-merge", b]);
  await git(W2, ["merge", "-q", "--no-ff", "-m", "W2 merges W1 frozen", a]);
  const w2Merge = await git(W2, ["rev-parse", "HEAD"]);
  await git(W2, ["checkout", "-q", "w2"]);
  const d = await commitIn(
    W2,
    { "proof/w2.md": "W2 later draft: sharper bound\n" },
    "W2 later draft",
  );

  // W3: its own work.
  const w3 = await commitIn(W3, { "review/w3.md": "W3 comparison plan\n" }, "W3 plan");

  // Primary: merge SHA-A on `integrate`, commit on top of SHA-A, and a reflog-less commit.
  await git(P, ["checkout", "-q", "-b", "integrate"]);
  await git(P, ["merge", "-q", "--no-ff", "-m", "Primary integrates W1 frozen", a]);
  const primaryMerge = await git(P, ["rev-parse", "HEAD"]);
  await git(P, ["checkout", "-q", "--detach", a]);
  const primaryOnA = await commitIn(
    P,
    { "notes/primary.md": "Primary note on W1\n" },
    "Primary on A",
  );
  await git(P, ["checkout", "-q", "main"]);
  const ghostOnA = await git(P, ["commit-tree", `${a}^{tree}`, "-p", a, "-m", "ghost on A"]);

  const commonDir = join(P, ".git");
  const scenario: Scenario = {
    root,
    dir,
    commonDir,
    tag,
    sha: {
      base,
      status,
      a0,
      a,
      c,
      b0,
      b,
      d,
      tagOnly,
      renamed,
      deleted,
      w2Merge,
      primaryMerge,
      primaryOnA,
      ghostOnA,
      w3,
    },
  };
  if (options.remote) {
    const remote = join(root, "origin.git");
    await git(root, ["init", "-q", "--bare", remote]);
    await git(P, ["remote", "add", "origin", remote]);
    await git(P, ["push", "-q", "origin", "main"]);
    await git(P, ["fetch", "-q", "origin"]);
    scenario.remote = remote;
  }
  return scenario;
}

/**
 * Remove a scenario's temp directory.
 *
 * @param s The scenario.
 */
export async function removeScenario(s: Scenario): Promise<void> {
  await Deno.remove(s.root, { recursive: true });
}
