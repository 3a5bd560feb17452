/**
 * How seeds go away: `handshake prune-seeds` deletes the anchors under
 * `refs/tether/seeds/` whose reflog says they were made longer ago than a duration (an
 * anchor without a reflog counts as old). Three git processes, however many seeds. The
 * objects themselves then go the usual way (`git gc` prunes unreachable objects).
 *
 * @module
 */
import { out, UsageError } from "../../cli.ts";
import { gitText, runGit } from "../../git.ts";
import { parseDuration } from "../../time.ts";
import { SEED_REF_PREFIX } from "../../seed/commit.ts";

/** What a prune did. */
export interface PruneResult {
  /** Seed ids whose anchors were deleted. */
  pruned: string[];
  /** How many anchors were kept. */
  kept: number;
}

/**
 * Which anchors are stale: made at or before `cutoff` (epoch seconds, so `--older-than 0s`
 * takes a seed made this second too), or of unknown age.
 *
 * @example One old, one new, one without a reflog
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const refs = ["refs/tether/seeds/a", "refs/tether/seeds/b", "refs/tether/seeds/c"];
 * const log = ["refs/tether/seeds/a@{100}", "refs/tether/seeds/b@{900}", "refs/tether/seeds/b@{50}"];
 * assertEquals(staleRefs(refs, log, 500), ["refs/tether/seeds/a", "refs/tether/seeds/c"]);
 * ```
 * @param refs The anchors.
 * @param reflog `git log -g --date=unix --format=%gD` lines (`<ref>@{<seconds>}`).
 * @param cutoff Epoch seconds; an anchor whose newest entry is not newer is stale.
 * @returns The stale anchors, in the order given.
 */
export function staleRefs(refs: string[], reflog: string[], cutoff: number): string[] {
  const newest = new Map<string, number>();
  for (const line of reflog) {
    const at = line.lastIndexOf("@{");
    const seconds = Number(line.slice(at + 2, -1));
    const ref = line.slice(0, at);
    if (at > 0 && Number.isFinite(seconds)) {
      newest.set(ref, Math.max(newest.get(ref) ?? -Infinity, seconds));
    }
  }
  return refs.filter((ref) => (newest.get(ref) ?? -Infinity) <= cutoff);
}

/**
 * Delete the seed anchors older than a duration.
 *
 * @param dir A directory in the repository.
 * @param olderThanMs The age beyond which an anchor goes.
 * @param now The current time in epoch milliseconds.
 * @returns The pruned seed ids and how many were kept.
 * @throws {GitError} when git fails.
 */
export async function pruneSeeds(
  dir: string,
  olderThanMs: number,
  now = Date.now(),
): Promise<PruneResult> {
  const listing = await gitText(
    ["for-each-ref", "--format=%(objectname) %(refname)", SEED_REF_PREFIX],
    { cwd: dir },
  );
  const anchors = new Map<string, string>();
  for (const line of listing.split("\n").filter(Boolean)) {
    const space = line.indexOf(" ");
    anchors.set(line.slice(space + 1), line.slice(0, space));
  }
  if (anchors.size === 0) return { pruned: [], kept: 0 };
  const refs = [...anchors.keys()];
  const reflog = await gitText(
    ["log", "-g", "--stdin", "--date=unix", "--format=%gD"],
    { cwd: dir, stdin: `${refs.join("\n")}\n`, env: { GIT_NO_REPLACE_OBJECTS: "1" } },
  );
  const stale = staleRefs(refs, reflog.split("\n"), Math.floor((now - olderThanMs) / 1000));
  if (stale.length > 0) {
    // Each delete names the value it saw, so an anchor moved meanwhile is left alone.
    const commands = stale.map((ref) => `delete ${ref} ${anchors.get(ref)}\n`).join("");
    await runGit(["update-ref", "--stdin"], { cwd: dir, stdin: commands });
  }
  return {
    pruned: stale.map((ref) => ref.slice(SEED_REF_PREFIX.length)),
    kept: refs.length - stale.length,
  };
}

/** The age `prune-seeds` uses when `--older-than` is not given. */
export const DEFAULT_SEED_AGE = "7d";

/**
 * Run `handshake prune-seeds [--older-than DURATION] [--json]` in the current directory.
 *
 * @param olderThan The duration text (`7d` when undefined).
 * @param json Print one JSON document instead of a line.
 * @returns The exit code (0).
 * @throws {UsageError} for a bad duration; {GitError} when git fails.
 */
export async function pruneSeedsMain(olderThan: string | undefined, json: boolean) {
  const ms = parseDuration(olderThan ?? DEFAULT_SEED_AGE);
  if (ms === undefined) {
    throw new UsageError(
      `--older-than must be a duration like 90s, 10m, 2h or 7d: ${JSON.stringify(olderThan)}`,
    );
  }
  const result = await pruneSeeds(Deno.cwd(), ms);
  await out(
    json
      ? `${JSON.stringify(result, null, 2)}\n`
      : `pruned ${result.pruned.length} seed(s) older than ${
        olderThan ?? DEFAULT_SEED_AGE
      }; kept ${result.kept}\n`,
  );
  return 0;
}
