/**
 * Mutation testing helpers: copy the repository's tracked source to a temp dir, disable a
 * guard there by an exact textual replacement, and run chosen tests against the copy.
 *
 * @module
 */
import { dirname, join } from "node:path";
import { ROOT, run, tempDir } from "./_helpers.ts";

/** One guard to disable: in `file`, the exact text `find` (which must occur once) becomes `replace`. */
export interface Mutation {
  file: string;
  find: string;
  replace: string;
}

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
  for (const path of list.stdout.split("\0").filter(Boolean)) {
    const from = join(ROOT, path);
    const to = join(copy, path);
    try {
      await Deno.mkdir(dirname(to), { recursive: true });
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
 * @throws {Error} when the guard text does not occur exactly once (so a test cannot silently no-op).
 */
export async function applyMutation(copy: string, m: Mutation): Promise<void> {
  const path = join(copy, m.file);
  const text = await Deno.readTextFile(path);
  const count = text.split(m.find).length - 1;
  if (count !== 1) {
    throw new Error(`guard text occurs ${count} times in ${m.file}: ${JSON.stringify(m.find)}`);
  }
  await Deno.writeTextFile(path, text.replace(m.find, m.replace));
}

/**
 * Run test files (optionally one test by name) in a copy.
 *
 * @param copy The copy's root.
 * @param files Test files relative to the root.
 * @param filter Optional test-name filter.
 * @returns Exit code and output of `deno test`.
 */
export function runTestsIn(copy: string, files: string[], filter?: string) {
  const args = ["test", "--quiet", "--allow-all", "--no-check", ...files.map((f) => join(copy, f))];
  if (filter) args.push("--filter", filter);
  return run(Deno.execPath(), args, { cwd: copy, env: { NO_COLOR: "1" } });
}

/** One guard: the mutations that disable it, and the test (file and name filter) that must then fail. */
export interface GuardCase {
  guard: string;
  mutations: Mutation[];
  file: string;
  filter: string;
}

function counts(output: string): { passed: number; failed: number } {
  const passed = Number(/\b(\d+) passed\b/.exec(output)?.[1] ?? 0);
  const failed = Number(/\b(\d+) failed\b/.exec(output)?.[1] ?? 0);
  return { passed, failed };
}

/**
 * For each guard, mutate a fresh copy and run its test there; one test step a guard
 * asserts that the run failed.
 *
 * @param t The test context (steps are named after the guards).
 * @param cases The guards.
 */
export async function assertEachMutantFails(
  t: Deno.TestContext,
  cases: GuardCase[],
): Promise<void> {
  const results = await Promise.all(cases.map(async (c) => {
    const copy = await copyTree();
    for (const m of c.mutations) await applyMutation(copy, m);
    const r = await runTestsIn(copy, [c.file], c.filter);
    await Deno.remove(copy, { recursive: true });
    return { c, r };
  }));
  for (const { c, r } of results) {
    await t.step(`without "${c.guard}" the suite fails`, () => {
      if (r.code === 0 || counts(r.stdout + r.stderr).failed === 0) {
        throw new Error(`the suite passed without "${c.guard}": ${r.stdout}${r.stderr}`);
      }
    });
  }
}

/**
 * Run every guard's test on one unmutated copy: each must pass, so a mutant's failure is
 * the guard's doing, not the copy's.
 *
 * @param cases The guards.
 */
export async function assertControlPasses(cases: GuardCase[]): Promise<void> {
  const copy = await copyTree();
  const runs = await Promise.all(cases.map((c) => runTestsIn(copy, [c.file], c.filter)));
  await Deno.remove(copy, { recursive: true });
  runs.forEach((r, i) => {
    const { passed, failed } = counts(r.stdout);
    if (r.code !== 0 || passed === 0 || failed !== 0) {
      throw new Error(`control run of "${cases[i]!.guard}" did not pass: ${r.stdout}${r.stderr}`);
    }
  });
}
