/**
 * The add step of a spawn: one linked worktree per directory, detached at the parent's
 * HEAD and not checked out (the fill writes its files), one at a time.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { GitError } from "../git_error.ts";

/**
 * How `git worktree add` fails when another one is being made at the same moment: it reads
 * every linked worktree's admin files, and one still being written is empty (git 2.39 dies
 * with `failed to read …/worktrees/<id>/commondir`, having made nothing).
 */
const ADD_RACE = /failed to read .*worktrees\/[^\n]*\/(?:commondir|gitdir)/;

/**
 * `git worktree add --no-checkout --detach DIR HEAD`, tried again (a few times, after a
 * short pause) when it lost the race above to a concurrent spawn; one at a time within a
 * spawn, which is why a spawn's own adds never race.
 */
async function addWorktree(dir: string, head: string): Promise<void> {
  const args = ["worktree", "add", "--no-checkout", "--detach", "--end-of-options", dir, head];
  for (let attempt = 1;; attempt++) {
    try {
      return void await runGit(args);
    } catch (error) {
      const raced = error instanceof GitError && ADD_RACE.test(error.stderrTail);
      if (!raced || attempt >= 5) throw error;
    }
    await new Promise((done) => setTimeout(done, 20 * attempt + Math.random() * 30));
  }
}

/**
 * Add a worktree at each directory, one at a time, recording each one as it is made (so a
 * failed spawn removes exactly those).
 *
 * @param dirs The directories (real paths).
 * @param head The parent's HEAD.
 * @param made Where each worktree made is recorded.
 * @throws {GitError} when git fails.
 */
export async function addWorktrees(
  dirs: readonly string[],
  head: string,
  made: { path: string; branch?: string }[],
): Promise<void> {
  for (const dir of dirs) {
    await addWorktree(dir, head);
    made.push({ path: dir });
  }
}
