/**
 * The path jail of seed 001: a child's path must stay inside its jail directory.
 * {@linkcode jailRelativePath} is the lexical check (pure, no file access);
 * {@linkcode resolveInsideJail} adds symlink resolution with `Deno.realPath`, so it
 * needs read permission. It is a library function for hosts that run children; the
 * `--allow-run=git` binaries only use the lexical check.
 *
 * @module
 */
import { join } from "../_path.ts";

/** A path that would leave its jail, or that cannot name anything inside one. */
export class JailError extends Error {
  /** The offending path. */
  readonly path: string;
  /**
   * Create the error.
   *
   * @param message What is wrong.
   * @param path The offending path.
   */
  constructor(message: string, path: string) {
    super(message);
    this.name = "JailError";
    this.path = path;
  }
}

/**
 * Check a path lexically and return it as clean `/`-separated segments relative to the jail.
 *
 * Rejects empty paths, NUL bytes, absolute paths (`/x`), Windows drive paths (`C:\x`,
 * `C:x`), UNC and device paths (`\\server\share`, `//server/share`, `\\?\…`) and any
 * `..` segment, with `\` treated as a separator.
 *
 * @example Accept a plain path, refuse an escape
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(jailRelativePath("./src//a.ts"), "src/a.ts");
 * let refused = false;
 * try { jailRelativePath("src/../../etc/passwd"); } catch { refused = true; }
 * assertEquals(refused, true);
 * ```
 * @param path The path the child named.
 * @returns The normalised relative path.
 * @throws {JailError} when the path is empty, absolute, a drive or UNC path, or has `..`.
 */
export function jailRelativePath(path: string): string {
  if (path === "") throw new JailError("Path is empty", path);
  if (path.includes("\0")) {
    throw new JailError(`Path contains a NUL byte: ${JSON.stringify(path)}`, path);
  }
  const quoted = JSON.stringify(path);
  if (/^[A-Za-z]:/.test(path)) throw new JailError(`Path is a Windows drive path: ${quoted}`, path);
  if (/^[\\/]{2}/.test(path)) throw new JailError(`Path is a UNC or device path: ${quoted}`, path);
  if (/^[\\/]/.test(path)) throw new JailError(`Path is absolute: ${quoted}`, path);
  const segments = path.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw new JailError(`Path climbs out with "..": ${quoted}`, path);
  if (segments.length === 0) throw new JailError(`Path names the jail itself: ${quoted}`, path);
  return segments.join("/");
}

async function isLink(path: string): Promise<boolean> {
  try {
    return (await Deno.lstat(path)).isSymlink;
  } catch {
    return false;
  }
}

function inside(root: string, candidate: string): boolean {
  const base = root.endsWith("/") ? root : `${root}/`;
  return candidate === root || candidate.startsWith(base);
}

/**
 * Resolve a child's path inside its jail, following symlinks: the longest existing
 * prefix is resolved with `Deno.realPath`, and the result must stay inside the jail's
 * real path. A path that does not exist yet (a file about to be written) is allowed
 * when its existing parent is inside; a dangling symlink on the way is refused (writing
 * through it would create a file wherever it points). The check is a snapshot in time: a
 * host must still open the result without following links it did not check.
 *
 * @param jail The jail directory (must exist).
 * @param path The path the child named, relative to the jail.
 * @returns The absolute, symlink-free path inside the jail.
 * @throws {JailError} on any lexical escape, when a symlink leads outside the jail, or when
 *   the path goes through a file that is not a directory or a symlink loop.
 * @throws {Deno.errors.NotFound} when the jail itself does not exist.
 */
export async function resolveInsideJail(jail: string, path: string): Promise<string> {
  const relative = jailRelativePath(path);
  const root = await Deno.realPath(jail);
  const segments = relative.split("/");
  for (let keep = segments.length; keep >= 0; keep--) {
    const existing = join(root, ...segments.slice(0, keep));
    let real: string;
    try {
      real = await Deno.realPath(existing);
    } catch (error) {
      if (
        error instanceof Deno.errors.NotADirectory ||
        error instanceof Deno.errors.FilesystemLoop
      ) {
        // A file used as a directory, or a symlink loop: nothing inside the jail is named.
        throw new JailError(
          `Path ${
            error instanceof Deno.errors.NotADirectory
              ? "goes through something that is not a directory"
              : "goes through a symlink loop"
          }: ${JSON.stringify(path)}`,
          path,
        );
      }
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (await isLink(existing)) {
        throw new JailError(`Path goes through a dangling symlink: ${JSON.stringify(path)}`, path);
      }
      continue;
    }
    if (!inside(root, real)) {
      throw new JailError(`Path leaves the jail through a symlink: ${JSON.stringify(path)}`, path);
    }
    return join(real, ...segments.slice(keep));
  }
  return join(root, relative);
}
