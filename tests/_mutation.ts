/**
 * Mutation testing helpers: copy the repository's tracked source to a temp dir, disable a
 * guard there by an exact textual replacement, and run chosen tests against the copy.
 *
 * @module
 */
import { dirname, join } from "../src/_path.ts";
import { ROOT, type Run, run, tempDir } from "./_helpers.ts";

/** One guard to disable: in `file`, the exact text `find` (which must occur once) becomes `replace`. */
export interface Mutation {
  file: string;
  find: string;
  replace: string;
}

/**
 * How many `deno test` runs (mutants or controls) one test starts at a time: each is a
 * Deno start-up that starts the binaries in turn, so more than the cores only adds
 * contention with the rest of the suite.
 */
const CONCURRENCY = Math.max(2, navigator.hardwareConcurrency ?? 2);

/**
 * Copy every tracked and untracked-but-not-ignored file of the repository to a temp dir.
 *
 * @returns The copy's root.
 */
export async function copyTree(): Promise<string> {
  const list = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
  });
  if (list.code !== 0) throw new Error(`git ls-files failed: ${list.stderr}`);
  const copy = await tempDir("tether-mutant-");
  const dirs = new Set<string>();
  for (const path of list.stdout.split("\0").filter(Boolean)) {
    const from = join(ROOT, path);
    const to = join(copy, path);
    try {
      const parent = dirname(to);
      if (!dirs.has(parent)) {
        await Deno.mkdir(parent, { recursive: true });
        dirs.add(parent);
      }
      await Deno.copyFile(from, to);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error; // deleted in the work tree
    }
  }
  return copy;
}

/**
 * Apply a mutation in a copy.
 *
 * @param copy The copy's root.
 * @param m The mutation.
 * @returns The file's text before the mutation.
 * @throws {Error} when the guard text does not occur exactly once (so a test cannot silently no-op).
 */
export async function applyMutation(copy: string, m: Mutation): Promise<string> {
  const path = join(copy, m.file);
  const text = await Deno.readTextFile(path);
  const count = text.split(m.find).length - 1;
  if (count !== 1) {
    throw new Error(`guard text occurs ${count} times in ${m.file}: ${JSON.stringify(m.find)}`);
  }
  await Deno.writeTextFile(path, text.replace(m.find, m.replace));
  return text;
}

/** What a copy held when it was made: each path below its root → kind, size and mtime. */
type Stamp = Map<string, string>;

async function stampOf(root: string): Promise<Stamp> {
  const out: Stamp = new Map();
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries: Promise<void>[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        out.set(path, "dir");
        entries.push(walk(join(dir, entry.name), path));
      } else {
        entries.push(
          Deno.lstat(join(dir, entry.name)).then((info) => {
            out.set(
              path,
              `${info.isFile ? "file" : "other"} ${info.size} ${info.mtime?.getTime()}`,
            );
          }),
        );
      }
    }
    await Promise.all(entries);
  };
  await walk(root, "");
  return out;
}

/** A copy of the checkout and what it held when made. */
interface Copy {
  root: string;
  stamp: Stamp;
}

/**
 * Copies of this test module that are as they were made (every mutation undone, and
 * nothing else added, removed or written since: see {@linkcode release}), kept for its next
 * mutant or control. A copy at the same paths lets Deno reuse what it transpiled there, so
 * a mutant pays for the modules it changes, not for a new copy and every module again.
 */
const spare: Copy[] = [];

/** A copy as the checkout is: a spare one, or a new one. */
async function take(): Promise<Copy> {
  const kept = spare.pop();
  if (kept !== undefined) return kept;
  const root = await copyTree();
  return { root, stamp: await stampOf(root) };
}

/**
 * Undo a mutant's changes (`originals`: file → its text before) and keep the copy for the
 * next run only when it then holds exactly what it held when made: the same paths, and
 * every file not restored the same size and modification time. Otherwise remove it.
 */
async function release(copy: Copy, originals: Map<string, string>): Promise<void> {
  for (const [file, text] of originals) await Deno.writeTextFile(join(copy.root, file), text);
  const now = await stampOf(copy.root);
  let same = now.size === copy.stamp.size;
  for (const [path, was] of copy.stamp) {
    if (!same) break;
    const is = now.get(path);
    if (originals.has(path)) {
      same = is !== undefined && is.startsWith("file ") &&
        await Deno.readTextFile(join(copy.root, path)) === originals.get(path);
    } else same = is === was;
  }
  if (same) spare.push({ root: copy.root, stamp: now }); // restored files: their new mtime
  else await Deno.remove(copy.root, { recursive: true });
}

/** Regular-expression syntax to escape in a name filter (what `deno test --filter /…/` treats as syntax). */
const SYNTAX = /[\\.+*?()|[\]{}^$#&\-~]/g;

/**
 * The `--filter` that runs exactly the tests whose names contain one of `filters` as a whole
 * phrase: not followed or preceded by a letter or digit, so `F1` runs F1 and not F10–F14.
 *
 * @param filters Name phrases.
 * @returns A `/regexp/` for `deno test --filter`.
 */
export function phraseFilter(filters: string[]): string {
  const phrases = [...new Set(filters)].map((f) => f.replace(SYNTAX, "\\$&"));
  return `/(?:^|[^0-9A-Za-z])(?:${phrases.join("|")})(?:[^0-9A-Za-z]|$)/`;
}

/** Whether a test name contains `filter` as {@linkcode phraseFilter} means it. */
function matchesPhrase(name: string, filter: string): boolean {
  return new RegExp(phraseFilter([filter]).slice(1, -1)).test(name);
}

/**
 * Run a test file (optionally only the tests a filter names) in a copy.
 *
 * @param copy The copy's root.
 * @param file The test file, relative to the root.
 * @param filter Optional test-name filter (a string, or `/regexp/`).
 * @param failFast Stop at the first failed test (a mutant needs one to fail, not all).
 * @returns Exit code and output (as `deno test` writes it).
 */
export function runTestsIn(copy: string, file: string, filter?: string, failFast = false) {
  // The copy's own runner: `tests/_mutant_run.ts` says why it is not `deno test`.
  const args = ["run", "--quiet", "--allow-all", "--no-check", join(copy, "tests/_mutant_run.ts")];
  args.push(join(copy, file));
  if (filter) args.push("--filter", filter);
  if (failFast) args.push("--fail-fast");
  return run(Deno.execPath(), args, { cwd: copy, env: { NO_COLOR: "1" } });
}

/** One guard: the mutations that disable it, and the test (file and name filter) that must then fail. */
export interface GuardCase {
  guard: string;
  mutations: Mutation[];
  file: string;
  /** A phrase of the test's name (whole words: see {@linkcode phraseFilter}). */
  filter: string;
}

function counts(output: string): { passed: number; failed: number } {
  const passed = Number(/\b(\d+) passed\b/.exec(output)?.[1] ?? 0);
  const failed = Number(/\b(\d+) failed\b/.exec(output)?.[1] ?? 0);
  return { passed, failed };
}

/**
 * The names of the top-level tests a `deno test` run reports as failed: the lines
 * `<name> => <file>:<line>:<col>` of its FAILURES section (a failed step's line is
 * `<test> ... <step> => …`, and counts for its test).
 */
export function failedTests(output: string): string[] {
  const section = output.split(/^ FAILURES $/m)[1] ?? "";
  return [...section.matchAll(/^(\S.*?)(?: \.\.\. .*)? => \S+:\d+:\d+$/gm)].map((m) => m[1]!);
}

/**
 * The names of the top-level tests a `deno test` run started (`name ...` at a line's start;
 * the result may follow on a later line, after output or a "has been running" note).
 */
function startedTests(output: string): string[] {
  return [...output.matchAll(/^(\S.*?) \.\.\./gm)].map((m) => m[1]!);
}

/** Run tasks with at most {@linkcode CONCURRENCY} at a time; results in order. */
async function bounded<T>(tasks: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, tasks.length) }, worker));
  return out;
}

/**
 * For each guard, mutate a copy that holds exactly what the checkout does (a new one, or
 * one a finished mutant left as it was made: {@linkcode release}) and run its test there;
 * one test step a guard asserts that the run failed.
 *
 * @param t The test context (steps are named after the guards).
 * @param cases The guards.
 */
export async function assertEachMutantFails(
  t: Deno.TestContext,
  cases: GuardCase[],
): Promise<void> {
  const results = await bounded(cases.map((c) => async () => {
    const copy = await take();
    const originals = new Map<string, string>();
    try {
      for (const m of c.mutations) {
        const before = await applyMutation(copy.root, m);
        if (!originals.has(m.file)) originals.set(m.file, before);
      }
      // Every test the filter runs is the guard's, so the first failure is enough.
      const r = await runTestsIn(copy.root, c.file, phraseFilter([c.filter]), true);
      return { c, r };
    } finally {
      await release(copy, originals);
    }
  }));
  for (const { c, r } of results) {
    await t.step(`without "${c.guard}" the suite fails`, () => {
      const out = r.stdout + r.stderr;
      if (r.code === 0 || counts(out).failed === 0) {
        throw new Error(`the suite passed without "${c.guard}": ${out}`);
      }
      // The guard's own test must be what failed: not a test the filter did not mean, and
      // not a module that no longer loads.
      if (!failedTests(r.stdout).some((name) => matchesPhrase(name, c.filter))) {
        throw new Error(`without "${c.guard}" no test named "${c.filter}" failed: ${out}`);
      }
    });
  }
}

/**
 * Show that an unmutated copy runs these guards' tests as the checkout does: in one copy,
 * the first guard's test of each test file must pass. A mutant's failure is then the
 * guard's doing, not the copy's, together with what {@linkcode assertEachMutantFails}
 * checks of each mutant (its own test is the one that failed) and the suite's own run of
 * every test on the checkout. One test a file, not every guard's: the suite already runs
 * each of them unmutated, and re-running them all in a copy doubled the mutation cost.
 *
 * @param cases The guards.
 */
export async function assertControlPasses(cases: GuardCase[]): Promise<void> {
  const copy = await take();
  const files = [...new Set(cases.map((c) => c.file))];
  const firsts = files.map((file) => cases.find((c) => c.file === file)!);
  let runs: Run[];
  try {
    runs = await bounded(
      firsts.map((c) => () => runTestsIn(copy.root, c.file, phraseFilter([c.filter]))),
    );
  } finally {
    await release(copy, new Map());
  }
  firsts.forEach((c, i) => {
    const r = runs[i]!;
    const { failed } = counts(r.stdout);
    const started = startedTests(r.stdout); // all passed: exit 0 and none failed
    if (r.code !== 0 || failed !== 0 || !started.some((name) => matchesPhrase(name, c.filter))) {
      throw new Error(`control run of "${c.guard}" did not pass: ${r.stdout}${r.stderr}`);
    }
  });
}
