/**
 * The capture's file reader: one `git hash-object --no-filters --stdin-paths`, up before
 * status starts and asked twice (the reflogs before status, the `HEAD` file, the reflogs
 * and the branch's ref file after it), so that no git process starts once status has
 * ended. A file's blob id tells whether it holds what was expected, or is unchanged.
 *
 * @module
 */
import { type GitProcess, startGit } from "../git.ts";
import { cQuotePath } from "../paths.ts";
import { at } from "./probe.ts";

/**
 * A path git printed relative to where it ran, made absolute against that directory (the
 * kernel resolves any `..` from there, as git would). `hash-object --stdin-paths` may move
 * to the top level before it reads a path (git 2.39 does), unlike paths given as arguments.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(absoluteFrom("/r/sub", "../.git/logs/HEAD"), "/r/sub/../.git/logs/HEAD");
 * assertEquals(absoluteFrom("/r", "/elsewhere/.git/logs/HEAD"), "/elsewhere/.git/logs/HEAD");
 * assertEquals(absoluteFrom("C:/r", "D:/g/logs/HEAD"), "D:/g/logs/HEAD");
 * ```
 * @param base The directory git ran in (absolute).
 * @param path The path as git printed it.
 * @returns The absolute path.
 */
export function absoluteFrom(base: string, path: string): string {
  return /^(?:[/\\]|[A-Za-z]:[/\\])/.test(path) ? path : `${base}/${path}`;
}

/**
 * The blob ids a file holding exactly `text` has, in either object format: the ids
 * `hash-object` prints for it.
 *
 * @example The empty file
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals((await blobIds(""))[0], "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
 * ```
 * @param text The content.
 * @returns The SHA-1 and the SHA-256 id.
 */
export async function blobIds(text: string): Promise<string[]> {
  const body = new TextEncoder().encode(text);
  const object = new Uint8Array([...new TextEncoder().encode(`blob ${body.length}\0`), ...body]);
  return await Promise.all(["SHA-1", "SHA-256"].map(async (algorithm) =>
    Array.from(
      new Uint8Array(await crypto.subtle.digest(algorithm, object)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("")
  ));
}

/**
 * The reflogs that record every move of HEAD: HEAD's own, and when HEAD is attached, the
 * branch's too (a branch's reflog lives in the common directory, beside its ref), since
 * another worktree's `git update-ref refs/heads/<branch>` moves this HEAD without writing
 * this worktree's `logs/HEAD`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const where = { reflog: ".git/logs/HEAD", commonDir: ".git" };
 * assertEquals(reflogsOf(where, "refs/heads/main"), [".git/logs/HEAD", ".git/logs/refs/heads/main"]);
 * assertEquals(reflogsOf(where, "HEAD"), [".git/logs/HEAD"]);
 * ```
 * @param where The probe's answer.
 * @param ref The ref HEAD is attached to, or `HEAD`.
 * @returns The reflog files to read.
 */
export function reflogsOf(where: { reflog: string; commonDir: string }, ref: string): string[] {
  if (ref === "HEAD") return [where.reflog];
  return [where.reflog, `${where.commonDir}/logs/${ref}`]; // tether:guard f4-branch-reflog
}

/**
 * What the `HEAD` file holds when HEAD is on `ref` at `head`: `ref: <ref>` when attached,
 * the id when detached.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(headFileText("refs/heads/main", "a".repeat(40)), "ref: refs/heads/main\n");
 * assertEquals(headFileText("HEAD", "a".repeat(40)), `${"a".repeat(40)}\n`);
 * ```
 * @param ref The ref, or `HEAD`.
 * @param head HEAD's id.
 * @returns The file's text as git writes it.
 */
export function headFileText(ref: string, head: string): string {
  return ref === "HEAD" ? `${head}\n` : `ref: ${ref}\n`;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** One line of `--stdin-paths`: C-quoted when it starts with a quote or holds a control character. */
function pathLine(path: string): string {
  // deno-lint-ignore no-control-regex
  return /^"|[\u0000-\u001f\u007f]/.test(path) ? cQuotePath(path) : path;
}

/** A running `hash-object --stdin-paths`. */
export interface Reader {
  /**
   * The blob ids of files, in order, hashed as their bytes are now.
   *
   * @param paths Absolute paths.
   * @returns The ids, fewer than asked when git stopped (a file is missing) or answered
   *   anything but an id; then the reader answers no more.
   */
  ask(paths: readonly string[]): Promise<string[]>;
  /** Whether it can still answer. */
  usable(): boolean;
  /** Tell it to end and wait until it has. */
  close(): Promise<void>;
}

/**
 * Start the reader.
 *
 * @param cwd Where git runs (the paths asked are absolute).
 * @returns The reader, or undefined when git could not be started (the caller then reads
 *   with processes of its own).
 */
export function startReader(cwd: string | undefined): Reader | undefined {
  let git: GitProcess;
  try {
    // Flushed per answer whatever the caller's GIT_FLUSH: each one is waited for.
    git = startGit(["hash-object", "--no-filters", "--stdin-paths"], {
      ...at(cwd),
      env: { GIT_FLUSH: "1", GIT_NO_REPLACE_OBJECTS: "1" },
    });
  } catch {
    return undefined;
  }
  let open = true;
  let closing: Promise<void> | undefined;
  return {
    async ask(paths) {
      const ids: string[] = [];
      if (!open) return ids;
      open = false; // until every answer has been read
      try {
        await git.send(paths.map((p) => `${pathLine(p)}\n`).join(""));
        for (const _ of paths) {
          const id = await git.readLine();
          if (id === undefined || !OID.test(id)) return ids;
          ids.push(id);
        }
        open = true;
      } catch {
        // git ended early: what it answered stands.
      }
      return ids;
    },
    usable: () => open,
    close: () => closing ??= git.finish().then(() => {}, () => {}),
  };
}
