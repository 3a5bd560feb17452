/**
 * Finding and ending every process one CLI run started, however it detached: each run's
 * environment carries a marker that its descendants inherit, and each run starts a session of
 * its own. Linux only (reads `/proc`), like the binary it serves. Deno allows reading `/proc`
 * only with `--allow-all`, so one `sh` (with `grep` and `sed`) reads it, and the tests need
 * no more than `--allow-run`.
 *
 * @module
 */

/** The environment variable whose value marks a run's processes. */
export const RUN_MARKER = "TETHER_CLAUDE_RUN";

/**
 * Lists `M <pid>` for each process whose environment holds exactly `$1` (a NUL-parted entry)
 * and `S <pid> <sid>` for every process. The needle is an argument, not in the scanner's own
 * environment, so the scanner never finds itself.
 */
const SCAN = [
  `grep -lsazx -- "$1" /proc/[0-9]*/environ | sed -n 's|^/proc/\\([0-9]*\\)/environ$|M \\1|p'`,
  `sed -n 's/^\\([0-9]*\\) .*) [A-Ya-z] [0-9-]* [0-9-]* \\([0-9-]*\\) .*/S \\1 \\2/p' /proc/[0-9]*/stat 2>/dev/null`,
  "exit 0",
].join("\n");

/**
 * The processes of one run: those whose environment holds `RUN_MARKER=marker`, or whose
 * session is `sid`.
 *
 * @param marker The run's marker value.
 * @param sid The run's session id (its first process's pid), if known.
 * @returns Their pids (this process never among them).
 * @throws {Error} when the scan cannot run.
 */
export async function runProcesses(marker: string, sid?: number): Promise<number[]> {
  const out = await new Deno.Command("sh", {
    args: ["-c", SCAN, "scan", `${RUN_MARKER}=${marker}`],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`Cannot list processes: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return parseScan(new TextDecoder().decode(out.stdout), sid).filter((pid) => pid !== Deno.pid);
}

/**
 * The pids a scan names: every `M` line, and the `S` lines of session `sid`.
 *
 * @param text The scan's output.
 * @param sid The session to pick, if any.
 * @returns Distinct pids in order.
 * @example
 * ```ts
 * import { assertEquals } from "../../src/_assert.ts";
 * assertEquals(parseScan("M 7\nS 7 5\nS 8 5\nS 9 1\n", 5), [7, 8]);
 * ```
 */
export function parseScan(text: string, sid?: number): number[] {
  const pids = new Set<number>();
  for (const line of text.split("\n")) {
    const [kind, pid, session] = line.split(" ");
    if (kind === "M" || (kind === "S" && sid !== undefined && Number(session) === sid)) {
      pids.add(Number(pid));
    }
  }
  return [...pids].filter((pid) => Number.isInteger(pid) && pid > 0);
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
