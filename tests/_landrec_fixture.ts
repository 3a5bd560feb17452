/**
 * The land-record tests' family (reviews worktree-3 and -4): a committed parent with a
 * ten-line f.txt, children spawned by `handshake --worktree --count`, and `gate --worktree`
 * run in the parent.
 *
 * @module
 */
import {
  claimResult,
  committedFamily,
  type Family,
  gateChild,
  recordId,
  spawnChildren,
  TEN,
  text,
} from "./_worktree_fixture.ts";

export { recordId, TEN, text };

/** A committed parent with f.txt (ten lines) and b.txt, and a directory for its children. */
export function family(): Promise<Family> {
  return committedFamily({ "f.txt": TEN, "b.txt": "b\n" });
}

/** Spawn `count` children at `kids/c`; their paths and the seed. */
export function spawn(f: Family, count: number): Promise<[string[], string]> {
  return spawnChildren(f, "c", count);
}

/** A result claiming `files`, with file evidence at the first. */
export const result: (...files: string[]) => string = claimResult;

/** `gate --worktree DIR --seed SEED …` in the parent. */
export const gate: typeof gateChild = gateChild;
