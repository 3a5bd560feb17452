/**
 * One call from a directory to its handshake: capture the live tree there and build the
 * v1 block, as `handshake` prints it. For a library user who dispatches subagents from
 * code rather than from a shell.
 *
 * @module
 */
import { buildBlock } from "./block.ts";
import { captureLive } from "./capture.ts";
import { styleCwd } from "./cwd.ts";
import { type Handshake, validateHandshake } from "./fields.ts";
import { issuedAtNow } from "../time.ts";

/** Options for {@linkcode captureHandshake} and {@linkcode handshakeBlock}. */
export interface HandshakeOptions {
  /** The directory to capture (default: the current one); it becomes `parent_cwd`. */
  cwd?: string;
  /** Spell `parent_cwd` natively (default) or as Git Bash's `pwd` does (`/c/...`). */
  cwdStyle?: "native" | "posix";
}

/**
 * Capture a directory's live tree as the six handshake fields.
 *
 * @param options The directory and how to spell it.
 * @returns The fields, validated, `workspace_mode: shared`, issued now.
 * @throws {GitError} when git is missing, too old, the directory is not in a repository
 * with a commit, or git fails.
 * @throws {FieldError} when the tree cannot be carried in a v1 block (a newline in a path, …).
 */
export async function captureHandshake(options: HandshakeOptions = {}): Promise<Handshake> {
  const tree = await captureLive(
    options.cwd === undefined ? { seedSpelling: true } : { cwd: options.cwd, seedSpelling: true },
  );
  return validateHandshake({
    parent_head: tree.parent_head,
    parent_branch: tree.parent_branch,
    parent_cwd: styleCwd(tree.parent_cwd, options.cwdStyle ?? "native"),
    parent_dirty_fingerprint: tree.parent_dirty_fingerprint,
    workspace_mode: "shared",
    handshake_issued_at: issuedAtNow(),
  });
}

/**
 * The handshake block for a directory, exactly as `handshake` run there prints it.
 *
 * @example Prepend the block to a subagent's prompt
 * ```ts ignore
 * import { handshakeBlock } from "../mod.ts";
 * const prompt = `${await handshakeBlock({ cwd: "/path/to/repo" })}\nFix the failing test.`;
 * ```
 * @param options The directory and how to spell it.
 * @returns The block, ending in a newline.
 * @throws {GitError} as {@linkcode captureHandshake}.
 * @throws {FieldError} as {@linkcode captureHandshake}.
 */
export async function handshakeBlock(options: HandshakeOptions = {}): Promise<string> {
  return buildBlock(await captureHandshake(options));
}
