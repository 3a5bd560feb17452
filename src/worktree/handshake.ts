/**
 * `handshake` in worktree mode: `--worktree DIR` spawns the children and prints v2 blocks
 * naming them; `--workspace-mode worktree` alone records the seed for a worktree a
 * harness makes. A failure here is always loud (exit 3, nothing on stdout): a caller who
 * asked for isolation must never get a child silently running in the shared tree.
 *
 * @module
 */
import { styleCwd } from "../handshake/cwd.ts";
import { validateField } from "../handshake/fields.ts";
import { ownWords } from "../git_failure.ts";
import { issuedAtNow } from "../time.ts";
import { err, out, UsageError } from "../cli.ts";
import type { DecodedPrompt } from "../encoding.ts";
import { isAbsolute, resolve } from "../_path.ts";
import { captureWorkingContext, type ContextResult } from "../context/capture.ts";
import { canonicalRecentPath } from "../context/snapshot.ts";
import { buildV2Block, HARNESS, type V2Handshake, validateV2Field } from "../handshake/v2/block.ts";
import { childDirs } from "./plan.ts";
import { parentLocation, seedParent, type Spawn, spawnWorktrees } from "./spawn.ts";
import type { SpawnedChild } from "./spawn_fill.ts";
import { prependTo } from "../encoding.ts";
import { GitError } from "../git_error.ts";

/** What the `handshake` command passes on in worktree mode. */
export interface WorktreeRequest {
  /** `--worktree DIR`, or undefined for the harness form. */
  dir: string | undefined;
  /** `--count N`. */
  count: number;
  /** `--json`. */
  json: boolean;
  /** `--context` and its `--recent` files. */
  context: boolean;
  recent: string[];
  /** `--cwd-style`. */
  cwdStyle: "native" | "posix";
  /** `--issued-at`, validated. */
  issuedAt: string | undefined;
  /** The prompt for `wrap` as read (its encoding kept), or null. */
  prompt: DecodedPrompt | null;
}

/** Exit code when the parent side cannot spawn. */
const EXIT_PARENT_FAILURE = 3;

/**
 * The v2 handshake of each child of a spawn (the harness form where no child is given).
 *
 * @param spawn The spawn.
 * @param children Its children (undefined for a worktree the harness makes).
 * @param req The cwd style and issue time.
 * @returns One handshake per child.
 * @throws {GitError} when a value cannot be carried in a block.
 */
export function blocksFor(
  spawn: Omit<Spawn, "children">,
  children: (SpawnedChild | undefined)[],
  req: Pick<WorktreeRequest, "cwdStyle" | "issuedAt">,
): V2Handshake[] {
  return children.map((child): V2Handshake => {
    const handshake: V2Handshake = {
      parent_head: spawn.live.parent_head,
      parent_branch: spawn.live.parent_branch,
      parent_cwd: styleCwd(spawn.live.parent_cwd, req.cwdStyle),
      parent_dirty_fingerprint: spawn.live.parent_dirty_fingerprint,
      workspace_mode: "worktree",
      handshake_issued_at: req.issuedAt ?? issuedAtNow(),
      seed: spawn.seed,
      worktree_path: child ? styleCwd(child.path, req.cwdStyle) : HARNESS,
      worktree_branch: child ? child.branch : HARNESS,
      worktree_cwd: child ? styleCwd(child.cwd, req.cwdStyle) : HARNESS,
    };
    for (const [name, value] of Object.entries(handshake)) {
      const reason = name.startsWith("worktree_") || name === "seed"
        ? validateV2Field(name as "seed", value)
        : validateField(name as "parent_head", value);
      if (reason) {
        throw new GitError("failed", `The tree cannot be carried in a v2 block: ${reason}`);
      }
    }
    return handshake;
  });
}

/**
 * The working context of each child, captured in the child's own worktree once it is
 * made (its directory, top level, branch, a linked worktree), never the parent's: a child
 * that followed the parent's would work in the shared tree. Recent files are read as the
 * parent named them (relative to its directory, or absolute) and given relative to the
 * top level, which is the same in the child; a file outside the tree keeps an absolute
 * path. All the children's contexts, or none when one cannot be captured.
 */
async function childContexts(
  children: readonly SpawnedChild[],
  recent: readonly string[],
): Promise<(ContextResult | undefined)[]> {
  const here = await parentLocation();
  const prefix = here.prefix === "" ? "" : `${here.prefix}/`;
  const inTree = recent.map((path) => {
    const canonical = canonicalRecentPath(path, here.top, prefix);
    const outside = canonical === path && (isAbsolute(path) || canonical.startsWith(".."));
    return outside ? { path: isAbsolute(path) ? path : resolve(path) } : { relative: canonical };
  });
  try {
    return await Promise.all(children.map((child) =>
      captureWorkingContext({
        cwd: child.cwd, // tether:guard wt-context-child
        audience: "private",
        recent: inTree.map((r) => "relative" in r ? `${child.path}/${r.relative}` : r.path),
      })
    ));
  } catch {
    return children.map(() => undefined);
  }
}

/**
 * Run the worktree form of `handshake`.
 *
 * @param req The parsed request.
 * @returns The exit code.
 * @throws {UsageError} for a bad combination of options.
 */
export async function worktreeHandshake(req: WorktreeRequest): Promise<number> {
  if (req.dir === "") throw new UsageError("--worktree needs a directory");
  // The harness form: where the harness will make the child's worktree is not known, so
  // the context leaves out every path and the git part (as --audience public does); the
  // parent's would point the child at the shared tree.
  const contextPromise: Promise<ContextResult | undefined> = req.context && req.dir === undefined
    ? captureWorkingContext({ recent: req.recent, audience: "public" }) // tether:guard wt-context-harness
    : Promise.resolve(undefined);
  contextPromise.catch(() => {});
  let spawn: Omit<Spawn, "children">;
  let children: (SpawnedChild | undefined)[];
  let handshakes: V2Handshake[] | undefined;
  try {
    if (req.dir === undefined) {
      spawn = await seedParent();
      children = Array.from({ length: req.count }, () => undefined);
    } else {
      const made = await spawnWorktrees(childDirs(req.dir, req.count));
      spawn = made;
      children = made.children;
      try {
        handshakes = blocksFor(spawn, children, req);
      } catch (error) {
        await made.rollback?.();
        throw error;
      }
    }
    handshakes ??= blocksFor(spawn, children, req);
  } catch (error) {
    const reason = error instanceof GitError && error.kind === "not-a-repository"
      ? "not a git repository"
      : ownWords(error);
    err(`error: ${reason}`);
    return EXIT_PARENT_FAILURE;
  }
  let contexts: (ContextResult | undefined)[];
  if (req.context && req.dir !== undefined) {
    contexts = await childContexts(children as SpawnedChild[], req.recent);
  } else {
    const shared = await contextPromise.catch(() => undefined);
    contexts = children.map(() => shared);
  }
  const context = contexts[0];
  const contextText = (c: ContextResult | undefined) =>
    c ? `${c.block.replace(/\n*$/, "\n")}\n` : "";
  const blocks = handshakes.map(buildV2Block);
  const heads = blocks.map((block, i) => `${block}\n${contextText(contexts[i])}`);
  if (req.json) {
    const wrapped = req.prompt === null ? null : heads.map((head) => `${head}${req.prompt!.text}`);
    const doc = {
      block: blocks[0] ?? null,
      blocks,
      fields: handshakes[0] ?? null,
      context: context?.context ?? null,
      context_block: context?.block ?? null,
      snapshot_id: context?.snapshotId ?? null,
      context_blocks: req.context ? contexts.map((c) => c?.block ?? null) : null,
      snapshot_ids: req.context ? contexts.map((c) => c?.snapshotId ?? null) : null,
      prompt: wrapped?.[0] ?? null,
      prompts: wrapped,
      seed: spawn.seed,
      worktrees: children.filter((c) => c !== undefined),
    };
    await out(`${JSON.stringify(doc, null, 2)}\n`);
  } else if (req.prompt) {
    await out(prependTo(req.prompt, heads));
  } else {
    await out(heads.map((head) => head.replace(/\n\n$/, "\n")).join("\n"));
  }
  return 0;
}
