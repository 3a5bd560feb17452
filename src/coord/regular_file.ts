/**
 * Reading a small file that must be a regular file, without ever blocking: a FIFO, a
 * device, a socket or a directory where a record or a git administrative file belongs is
 * reported, never opened for reading.
 *
 * @module
 */
import { isPermissionError } from "../cli.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What reading a file found: its text, why it was not read, or undefined when it is absent. */
export type RegularFile = { ok: true; text: string } | { ok: false; reason: string } | undefined;

function kindOf(info: Deno.FileInfo): string {
  if (info.isSymlink) return "a symbolic link";
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

/**
 * Whether the file opened is the one the path showed: the same device and inode, or, where
 * the system gives an open file another identity than its path (overlayfs before Linux
 * 4.19), a second look at the path that still finds the first one. Not asked on Windows,
 * which has no FIFO at a path and where the two looks need not agree (its open never
 * refused a link either).
 */
function sameFile(
  path: string,
  info: Deno.FileInfo,
  opened: Deno.FileInfo,
  follow: boolean,
): boolean {
  if (Deno.build.os === "windows") return true;
  if (opened.dev === info.dev && opened.ino === info.ino) return true;
  try {
    const again = follow ? Deno.statSync(path) : Deno.lstatSync(path);
    return again.isFile && again.dev === info.dev && again.ino === info.ino;
  } catch {
    return false;
  }
}

/**
 * Read a UTF-8 file that must be regular. The path is examined first (`lstat`, or `stat`
 * with `follow`); anything but a regular file is never opened. A regular file is then
 * opened, and read only when the file opened is the one examined ({@linkcode sameFile}),
 * so a path swapped in between for a symbolic link or another file is reported as
 * changed. The size the first look gave is read (at most `maxBytes`): a file that reads
 * shorter is reported as changed, one that grew is read to that size. A path swapped for a
 * FIFO in that instant can still hold the open: `O_NONBLOCK` needs `node:fs`, whose loading
 * would cost every coord call about a quarter of its start-up, for a race only a hostile
 * process runs.
 *
 * @example A FIFO is reported, never opened
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(readRegularFile("/dev/null", 100), { ok: false, reason: "is a device" });
 * ```
 * @param path The file.
 * @param maxBytes The largest size read.
 * @param follow Follow a symbolic link at the path (otherwise it is not a regular file).
 * @returns The text, the reason it was not read (`is a FIFO`, `is too large`, …), or
 * undefined when nothing is there.
 */
export function readRegularFile(path: string, maxBytes: number, follow = false): RegularFile {
  let info: Deno.FileInfo;
  try {
    info = follow ? Deno.statSync(path) : Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    // A missing Deno permission is reported as one by the entry point.
    if (isPermissionError(error)) throw error;
    return { ok: false, reason: "cannot be read" };
  }
  if (!info.isFile) return { ok: false, reason: `is ${kindOf(info)}` }; // GUARD:special-file
  if (info.size > maxBytes) return { ok: false, reason: "is too large" };
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (isPermissionError(error)) throw error;
    return { ok: false, reason: "cannot be read" };
  }
  try {
    const opened = file.statSync();
    if (!opened.isFile || !sameFile(path, info, opened, follow)) {
      return { ok: false, reason: "changed while read" };
    }
    const buffer = new Uint8Array(info.size + 1);
    let length = 0;
    while (length <= info.size) {
      const n = file.readSync(buffer.subarray(length));
      if (n === null || n === 0) break;
      length += n;
      if (length === info.size) break; // a regular file's last read is a full one
    }
    if (length !== info.size) return { ok: false, reason: "changed while read" };
    return { ok: true, text: utf8.decode(buffer.subarray(0, length)) };
  } catch {
    return { ok: false, reason: "cannot be read" };
  } finally {
    file.close();
  }
}
