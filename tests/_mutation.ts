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
