/**
 * Finding and ending every process one CLI run started, however it detached: each run's
 * environment carries a marker that its descendants inherit, and each run starts a session of
 * its own. Linux only (reads `/proc`), like the binary it serves.
 *
 * @module
 */

/** The environment variable whose value marks a run's processes. */
export const RUN_MARKER = "TETHER_CLAUDE_RUN";

/**
 * The processes of one run: those whose environment holds `RUN_MARKER=marker`, or whose
 * session is `sid`.
 *
 * @param marker The run's marker value.
 * @param sid The run's session id (its first process's pid), if known.
 * @returns Their pids (this process never among them).
 */
export async function runProcesses(marker: string, sid?: number): Promise<number[]> {
  const needle = new TextEncoder().encode(`\0${RUN_MARKER}=${marker}\0`);
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    const pid = Number(entry.name);
    if (!Number.isInteger(pid) || pid === Deno.pid) continue;
    try {
      if (sid !== undefined && sessionOf(await Deno.readTextFile(`/proc/${pid}/stat`)) === sid) {
        pids.push(pid);
        continue;
      }
      const environ = await Deno.readFile(`/proc/${pid}/environ`);
      const padded = new Uint8Array(environ.length + 1);
      padded.set(environ, 1);
      if (contains(padded, needle)) pids.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/**
 * SIGKILL every process of a run until none is left (a dying parent may still fork).
 *
 * @param marker The run's marker value.
 * @param sid The run's session id, if known.
 * @returns How many processes it killed.
 * @throws {Error} when some survive ten rounds.
 */
export async function killRun(marker: string, sid?: number): Promise<number> {
  let killed = 0;
  for (let round = 0; round < 10; round++) {
    const pids = await runProcesses(marker, sid);
    if (pids.length === 0) return killed;
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // Already gone.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50 * (round + 1)));
  }
  const left = await runProcesses(marker, sid);
  if (left.length > 0) {
    throw new Error(`Cannot end processes of run "${marker}": ${left.join(" ")}`);
  }
  return killed;
}

/**
 * The session id in a `/proc/PID/stat` line (field 6; the command name may hold spaces and
 * parentheses, so fields are counted after its last `)`).
 *
 * @param stat The file's text.
 * @returns The session id.
 * @example
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * assertEquals(sessionOf("42 (a) b) S 1 42 40 0 -1"), 40);
 * ```
 */
export function sessionOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[3]);
}

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return true;
  }
  return false;
}
