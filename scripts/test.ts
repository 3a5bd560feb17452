/**
 * `deno task test`: `deno test` with the arguments given, in a temp dir of its own. The run
 * gets a fresh `tether-run-*` directory as `$TMPDIR` (and `TMP`/`TEMP`), so everything a test
 * makes lives under it; the directory is removed when the run ends, also when it is
 * interrupted (SIGINT, SIGTERM, SIGHUP; SIGINT, SIGBREAK on Windows: passed on to the suite
 * first), and a run killed outright leaves it to the next run, which removes every
 * `tether-run-*` whose runner and suite are both gone.
 *
 * The suite's own output passes through unchanged. Anything a test left behind in the run's
 * temp dir is named on one line at the end and fails the run.
 *
 * On Linux the run's dir is marked as the top of a directory hierarchy (`chattr +T`, where
 * the filesystem has the mark: ext4), so each test's dir under it goes to a block group of
 * its own. Otherwise every file the suite creates lands in the block group of the system's
 * temp dir, and ext4 without a journal skips there, one by one, every inode freed in the
 * last half minute: with the thousands of files the suite makes and removes, creating a file
 * cost more than half a millisecond of system time, and the suite about a third more CPU.
 *
 * At its end the run also removes what Deno cached in its own cache dir for the modules
 * under the run's temp dir (the mutation tests' copies of the checkout, scripts a test
 * writes), so a run does not grow Deno's cache by a hundred copies of transpiled modules.
 *
 * Exit codes: those of `deno test`, or 1 when the suite passed but left something behind.
 *
 * @module
 */
import { dirname, join } from "../src/_path.ts";

/** The prefix of a run's temp dir, in the system's. */
export const RUN_PREFIX = "tether-run-";
/** The file in a run's temp dir that names its runner and its suite (`<pid> <pid>`). */
export const OWNER = ".owner";
/**
 * How old a run's dir must be before another run removes it when nothing says whether its
 * runner still runs (no readable owner, or no way to ask the system): no run lasts a day.
 */
const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the process `pid` is running: `/proc` where there is one, `ps -p` elsewhere.
 *
 * @param pid A process id.
 * @returns Whether it runs, or undefined when the system cannot tell (Windows).
 */
export async function running(pid: number): Promise<boolean | undefined> {
  // A `ps` on a Windows PATH (Git for Windows) speaks of its own process ids, not these.
  if (Deno.build.os === "windows") return undefined;
  try {
    await Deno.stat("/proc/self");
  } catch {
    try {
      const ps = await new Deno.Command("ps", { args: ["-p", String(pid)], stdout: "null" })
        .output();
      return ps.code === 0;
    } catch {
      return undefined;
    }
  }
  try {
    // A process that ended but was not yet reaped (its parent was killed) is a zombie.
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** Whether any of these processes runs (undefined when the system cannot tell). */
async function anyRunning(pids: readonly number[]): Promise<boolean | undefined> {
  const answers = await Promise.all(pids.map(running));
  if (answers.includes(true)) return true;
  return answers.includes(undefined) ? undefined : false;
}

/**
 * Remove the temp dirs of earlier runs that were killed before they could: every
 * `tether-run-*` in `base` whose runner and suite are both gone, or a day old when that
 * cannot be told.
 *
 * @param base The system's temp dir.
 * @param own This run's dir (kept).
 * @returns The names removed.
 */
export async function sweep(base: string, own: string): Promise<string[]> {
  const removed: string[] = [];
  for await (const entry of Deno.readDir(base)) {
    const dir = join(base, entry.name);
    if (!entry.name.startsWith(RUN_PREFIX) || !entry.isDirectory || dir === own) continue;
    // The runner and its suite: a suite whose runner was killed may still be writing there.
    const pids = (await Deno.readTextFile(join(dir, OWNER)).catch(() => "")).split(" ")
      .map(Number).filter((pid) => Number.isSafeInteger(pid) && pid > 0);
    const runs = pids.length === 0 ? undefined : await anyRunning(pids);
    const info = await Deno.stat(dir).catch(() => undefined); // gone meanwhile: another run's sweep
    if (info === undefined) continue;
    const age = Date.now() - (info.mtime?.getTime() ?? Date.now());
    if (runs === true || (runs === undefined && age <= ORPHAN_AGE_MS)) continue;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    removed.push(entry.name);
  }
  return removed;
}

/** What a run left in its temp dir besides its owner file. */
async function leftIn(dir: string): Promise<string[]> {
  const left: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.name !== OWNER) left.push(entry.name);
  return left.sort();
}

/**
 * Remove what Deno cached for the modules under `dir` (transpiled copies of the mutation
 * tests' and the tests' own scripts), from where `deno info --json` says Deno keeps them:
 * `<typescriptCache>/file/<dir>`. Outside Windows only, whose layout there is not known.
 * Best effort: a cache Deno cannot name is left as it is.
 */
async function forgetCached(dir: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  try {
    const info = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const gen = JSON.parse(new TextDecoder().decode(info.stdout)).typescriptCache;
    if (typeof gen === "string" && gen !== "") {
      await Deno.remove(join(gen, "file", dir), { recursive: true });
    }
  } catch { /* nothing cached there, or no cache to read */ }
}

/**
 * Mark `dir` as the top of a directory hierarchy, so the filesystem spreads the dirs made
 * in it (see the module doc). Best effort: without `chattr`, or on a filesystem without the
 * mark, nothing changes.
 */
async function spreadBelow(dir: string): Promise<void> {
  if (Deno.build.os !== "linux") return;
  try {
    await new Deno.Command("chattr", { args: ["+T", dir], stdout: "null", stderr: "null" })
      .output();
  } catch { /* no chattr */ }
}

/**
 * Run `deno test` with `args` under a temp dir of its own, then remove it.
 *
 * @param args The arguments after `deno test`.
 * @returns The exit code.
 */
export async function main(args: readonly string[]): Promise<number> {
  const own = await Deno.makeTempDir({ prefix: RUN_PREFIX });
  const real = await Deno.realPath(own); // what a module under it is cached as, where it differs
  const base = dirname(own);
  await Deno.writeTextFile(join(own, OWNER), `${Deno.pid}`);
  await spreadBelow(own);
  // Passed on to the suite, which then ends and lets this run clean up (a closed terminal too).
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  const forward: Array<[Deno.Signal, () => void]> = [];
  try {
    const swept = await sweep(base, own);
    if (swept.length > 0) console.error(`removed the temp dirs of killed runs: ${swept.join(" ")}`);
    const suite = new Deno.Command(Deno.execPath(), {
      args: ["test", ...args],
      env: { TMPDIR: own, TMP: own, TEMP: own },
      stdin: "null",
    }).spawn();
    await Deno.writeTextFile(join(own, OWNER), `${Deno.pid} ${suite.pid}`);
    for (const signal of signals) {
      const handler = () => {
        try {
          suite.kill(signal);
        } catch { /* it has ended */ }
      };
      Deno.addSignalListener(signal, handler);
      forward.push([signal, handler]);
    }
    let { code } = await suite.status;
    const left = await leftIn(own);
    if (left.length > 0) {
      console.log(`the suite left ${left.length} entries in its temp dir: ${left.join(" ")}`);
      if (code === 0) code = 1;
    }
    return code;
  } finally {
    for (const [signal, handler] of forward) Deno.removeSignalListener(signal, handler);
    await Deno.remove(own, { recursive: true }).catch(() => {});
    for (const dir of new Set([own, real])) await forgetCached(dir);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
