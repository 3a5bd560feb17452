/**
 * The harness form of the v2 block, for a worktree the harness makes itself (Claude
 * Code's `isolation: "worktree"`): the parent's seed recorded, the worktree fields
 * `harness`.
 *
 * @module
 */
import type { TreeState } from "../handshake/fields.ts";
import { issuedAtNow } from "../time.ts";
import { buildV2Block, HARNESS } from "../handshake/v2/block.ts";
import { seedParent } from "./spawn.ts";

/**
 * Record the parent's seed in `cwd` and build the harness-form v2 block.
 *
 * @param cwd The parent's directory.
 * @param fields Checks and styles the captured v1 tree fields (as `wrap` does).
 * @returns The block, ending in a newline.
 * @throws {import("../git_error.ts").GitError} when the capture fails.
 */
export async function harnessBlock(
  cwd: string,
  fields: (tree: TreeState) => TreeState,
): Promise<string> {
  const spawn = await seedParent(cwd);
  return buildV2Block({
    ...fields(spawn.live),
    workspace_mode: "worktree",
    handshake_issued_at: issuedAtNow(),
    seed: spawn.seed,
    worktree_path: HARNESS,
    worktree_branch: HARNESS,
    worktree_cwd: HARNESS,
  });
}
