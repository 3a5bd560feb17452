/**
 * The status a worktree child can reproduce, which worktree mode's dirty fingerprint is
 * taken over. A child never gets a submodule's working tree: its gitlink checks out as an
 * empty directory, and git reports an unpopulated submodule as unchanged. So the worktree
 * column of a gitlink's `git status --porcelain` line (`M`, shown for uncommitted or
 * untracked content inside the submodule) can never show in the child, and is left out on
 * both sides; the submodule's commit is carried by the seed, which verify compares exactly.
 * Every other line, and every byte of a status without such a line, is kept.
 *
 * @module
 */
import { decodePath, encodePath } from "../paths.ts";
import { fingerprint } from "../handshake/fingerprint.ts";

/** C escapes git's `quote_c_style` writes, by byte. */
const ESCAPES: Readonly<Record<number, string>> = {
  0x07: "\\a",
  0x08: "\\b",
  0x09: "\\t",
  0x0a: "\\n",
  0x0b: "\\v",
  0x0c: "\\f",
  0x0d: "\\r",
  0x22: '\\"',
  0x5c: "\\\\",
};

/**
 * A path as `git status --porcelain` prints it: as itself, or C-quoted when it holds a
 * control character, `"`, `\`, DEL or (with `core.quotePath`, git's default) a byte of
 * 0x80 or more.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(porcelainPath("sm", true), "sm");
 * assertEquals(porcelainPath("ü\tx", true), '"\\303\\274\\tx"');
 * assertEquals(porcelainPath("ü", false), "ü");
 * ```
 * @param path The path, decoded as {@linkcode decodePath} does.
 * @param quoteHigh Whether bytes of 0x80 or more are quoted (`core.quotePath`).
 * @returns The path as status shows it.
 */
export function porcelainPath(path: string, quoteHigh: boolean): string {
  const bytes = encodePath(path);
  const special = (b: number) => b < 0x20 || b === 0x22 || b === 0x5c || b === 0x7f;
  if (!bytes.some((b) => special(b) || (quoteHigh && b >= 0x80))) return path;
  let out = '"';
  for (const b of bytes) {
    if (ESCAPES[b] !== undefined) out += ESCAPES[b];
    else if (special(b) || b >= 0x80) out += `\\${b.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(b);
  }
  return `${out}"`;
}

/**
 * The status without the worktree column of each gitlink's line: ` M sm` goes, `MM sm`
 * becomes `M  sm`. A status without such a line is returned as it is.
 *
 * @example A submodule with uncommitted work inside it
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * const text = (b: Uint8Array) => new TextDecoder().decode(b);
 * assertEquals(text(carriedStatus(bytes(" M sm\n M a.txt\nMM lib\n"), ["sm", "lib"])), " M a.txt\nM  lib\n");
 * assertEquals(text(carriedStatus(bytes(" M a.txt\n"), ["sm"])), " M a.txt\n");
 * ```
 * @param status What `git status --porcelain` printed.
 * @param gitlinks The paths of the tree's gitlinks (mode 160000).
 * @returns The status a child can reproduce.
 */
export function carriedStatus(status: Uint8Array, gitlinks: Iterable<string>): Uint8Array {
  const shown = new Set<string>();
  for (const path of gitlinks) {
    shown.add(porcelainPath(path, true));
    shown.add(porcelainPath(path, false));
  }
  if (shown.size === 0) return status;
  const lines = decodePath(status).split("\n");
  let changed = false;
  const kept: string[] = [];
  for (const line of lines) {
    if (line[1] === "M" && line[2] === " " && shown.has(line.slice(3).replace(/\r$/, ""))) { // tether:guard wt-carried-status
      changed = true;
      if (line[0] !== " ") kept.push(`${line[0]}  ${line.slice(3)}`);
    } else kept.push(line);
  }
  return changed ? encodePath(kept.join("\n")) : status;
}

/**
 * Worktree mode's dirty fingerprint: the v1 fingerprint of {@linkcode carriedStatus}. For a
 * tree without a submodule whose own working tree is dirty it is the v1 fingerprint.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assertEquals(await carriedFingerprint(bytes(" M sm\n"), ["sm"]), "e3b0c44298fc");
 * ```
 * @param status What `git status --porcelain` printed.
 * @param gitlinks The paths of the tree's gitlinks.
 * @returns 12 lowercase hex digits.
 */
export function carriedFingerprint(
  status: Uint8Array,
  gitlinks: Iterable<string>,
): Promise<string> {
  return fingerprint(carriedStatus(status, gitlinks));
}
