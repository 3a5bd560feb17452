/**
 * Which lane made a commit: the lane whose worktree HEAD reflog records its creation
 * (commit, amend, merge, rebase, cherry-pick, revert, am), never a lane that merely
 * checked it out, reset to it or fast-forwarded onto it. All lanes' reflogs are read in
 * one git call.
 *
 * @module
 */
import { runGit } from "../git.ts";
import type { At, LaneWorktree } from "./identity.ts";
import { CONTESTED } from "./visibility.ts";

/**
 * Whether a reflog subject (`%gs`) records the creation of the commit it points at.
 *
 * @example Checkout, reset and fast-forward create nothing
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isCreation("commit (amend): fix"), true);
 * assertEquals(isCreation("merge w1: Merge made by the 'ort' strategy."), true);
 * assertEquals(isCreation("rebase (pick): step"), true);
 * assertEquals(isCreation("cherry-pick: step"), true);
 * assertEquals(isCreation("checkout: moving from w2 to w1"), false);
 * assertEquals(isCreation("merge w1: Fast-forward"), false);
 * assertEquals(isCreation("pull: Fast-forward"), false);
 * assertEquals(isCreation("reset: moving to HEAD~1"), false);
 * ```
 * @param subject The reflog message.
 * @returns True for a creation event.
 */
export function isCreation(subject: string): boolean {
  if (/fast[- ]forward/i.test(subject)) return false;
  if (/^commit( \([a-z -]+\))?:/.test(subject)) return true;
  if (/^(merge|pull)\b[^:]*: Merge made by/.test(subject)) return true;
  if (
    /^(rebase|pull --rebase)( -[im])? \((pick|reword|edit|squash|fixup|continue)\):/.test(subject)
  ) return true;
  return /^(cherry-pick|revert|am)\b[^:]*:/.test(subject);
}

/**
 * Build the ownership map from `git log -g --format='%H %gD %gs' --date=unix` output over
 * several reflogs: each commit belongs to the lane with the earliest creation entry; two
 * lanes recording it in the same second make it contested (nobody's but Primary's to see).
 *
 * @example W2 checking out W1's commit does not take it
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const a = "a".repeat(40);
 * const text = [
 *   `${a} worktrees/w2/HEAD@{200} checkout: moving from w2 to w1`,
 *   `${a} worktrees/w1/HEAD@{100} commit: proof`,
 * ].join("\n");
 * const owners = parseOwnership(text, new Map([["worktrees/w1/HEAD", "W1"], ["worktrees/w2/HEAD", "W2"]]));
 * assertEquals(owners.get(a), "W1");
 * ```
 * @param text git's output.
 * @param reflogToLane Reflog name → lane.
 * @returns Commit → lane (or {@linkcode CONTESTED}).
 */
export function parseOwnership(
  text: string,
  reflogToLane: ReadonlyMap<string, string>,
): Map<string, string> {
  const best = new Map<string, { lane: string; time: number }>();
  for (const line of text.split("\n")) {
    const match = /^([0-9a-f]{40,64}) (.+)@\{(\d+)\} (.*)$/.exec(line);
    if (!match?.[1] || !match[2] || !match[3]) continue;
    const lane = reflogToLane.get(match[2]);
    if (lane === undefined || !isCreation(match[4] ?? "")) continue;
    const time = Number(match[3]);
    const seen = best.get(match[1]);
    if (!seen || time < seen.time) best.set(match[1], { lane, time });
    else if (time === seen.time && seen.lane !== lane) {
      best.set(match[1], { lane: CONTESTED, time });
    }
  }
  return new Map([...best].map(([commit, { lane }]) => [commit, lane]));
}

/**
 * Read every lane's HEAD reflog and decide who made which commit.
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param worktrees The lanes' worktrees and reflog names.
 * @returns Commit → lane.
 * @throws {GitError} when git fails.
 */
export async function readOwnership(
  at: At,
  worktrees: readonly LaneWorktree[],
): Promise<Map<string, string>> {
  const reflogToLane = new Map(worktrees.map((w) => [w.reflog, w.lane]));
  const args = ["log", "-g", "--no-abbrev", "--format=%H %gD %gs", "--date=unix"];
  const all = await runGit([...args, "--end-of-options", ...reflogToLane.keys()], {
    ...at,
    parse: true,
    allowFailure: true,
  });
  if (all.code === 0) return parseOwnership(new TextDecoder().decode(all.stdout), reflogToLane);
  // A worktree with no reflog yet makes the combined call fail; read the others one by one.
  const texts = await Promise.all([...reflogToLane.keys()].map(async (name) => {
    const one = await runGit([...args, "--end-of-options", name], {
      ...at,
      parse: true,
      allowFailure: true,
    });
    return one.code === 0 ? new TextDecoder().decode(one.stdout) : "";
  }));
  return parseOwnership(texts.join("\n"), reflogToLane);
}
