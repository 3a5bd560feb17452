/**
 * The branches of a spawn: `tether/<seed 12 hex>-<n>` at the parent's HEAD, each with its
 * spawn ref at the seed, claimed in `git update-ref` transactions of `create` commands so
 * that concurrent spawns never share a name.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { BRANCH_PREFIX, branchName, SPAWN_REF_PREFIX } from "./plan.ts";
import { GitError } from "../git_error.ts";

/**
 * Claim the first free name `tether/<seed>-<n>` from `from` on: the branch at `head` and
 * its spawn ref at the seed, created together in one transaction that fails when either
 * exists, so concurrent spawns never share a name.
 */
async function claimBranch(seed: string, head: string, from: number) {
  for (let n = from; n < from + 1000; n++) {
    const name = branchName(seed, n);
    if (await createRefs([name], seed, head)) return { name, n };
  }
  throw new GitError("failed", "No free branch name for the worktree");
}

/**
 * Create the branches `names` at `head` and their spawn refs at the seed in one
 * transaction of `create` commands: all or none, none when any of them exists.
 */
async function createRefs(names: readonly string[], seed: string, head: string) {
  const stdin = names.map((name) =>
    `create refs/heads/${name} ${head}\n` + // tether:guard wt-create-only
    `create ${SPAWN_REF_PREFIX}${name.slice(BRANCH_PREFIX.length)} ${seed}\n`
  ).join("");
  const r = await runGit(["update-ref", "-m", "tether: spawn", "--stdin"], {
    stdin,
    allowFailure: true,
  });
  return r.code === 0;
}

/**
 * Claim a branch per child: `tether/<seed>-1` … `-<count>` in one transaction when all are
 * free (the usual case), else the first free names one at a time.
 */
export async function claimBranches(seed: string, head: string, count: number): Promise<string[]> {
  const first = Array.from({ length: count }, (_, i) => branchName(seed, i + 1));
  if (await createRefs(first, seed, head)) return first;
  const names: string[] = [];
  for (let n = 1; names.length < count;) {
    const claimed = await claimBranch(seed, head, n);
    names.push(claimed.name);
    n = claimed.n + 1;
  }
  return names;
}
