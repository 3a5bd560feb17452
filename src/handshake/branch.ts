/**
 * The branch a block names. tether reads HEAD's ref (`git symbolic-ref HEAD`), so a tag or a
 * remote named like the branch cannot pass for it; the seed's parent writes what
 * `git rev-parse --abbrev-ref HEAD` prints, which is `heads/<name>` (or `refs/heads/<name>`)
 * when another ref shares the name. Both spellings of the one ref HEAD is on are accepted;
 * the second only as git itself spells that ref here.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { type GitResult } from "../git_error.ts";

const decoder = new TextDecoder();

/**
 * Read the branch from `git symbolic-ref -q HEAD`: the ref HEAD is attached to, or `HEAD`
 * when HEAD is detached (exit 1, nothing printed). Anything else is no answer.
 *
 * @example Attached, detached, and failures
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const r = (code: number, out: string, err = "") => ({ code, stdout: new TextEncoder().encode(out), stderr: err });
 * assertEquals(parseHeadRef(r(0, "refs/heads/main\n")), "refs/heads/main");
 * assertEquals(parseHeadRef(r(1, "")), "HEAD");
 * assertEquals(parseHeadRef(r(0, "\n")), undefined);
 * assertEquals(parseHeadRef(r(128, "", "fatal: not a git repository")), undefined);
 * ```
 * @param result What `git symbolic-ref -q HEAD` returned.
 * @returns The ref, `HEAD`, or undefined when the answer is not one of those.
 */
export function parseHeadRef(result: GitResult): string | undefined {
  const text = decoder.decode(result.stdout);
  if (result.code === 1 && text === "" && result.stderr === "") return "HEAD";
  if (result.code !== 0 || !/^refs\/[^\n]+\n$/.test(text)) return undefined;
  return text.slice(0, -1);
}

/**
 * tether's own spelling of a branch ref, as `git rev-parse --abbrev-ref HEAD` prints it in
 * a repository where no other ref shares the name: `refs/heads/x` → `x`, detached → `HEAD`.
 * A ref outside `refs/heads/` keeps its full name; it is no branch and matches none.
 *
 * @example Branch, detached, elsewhere
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(branchValue("refs/heads/feature/x"), "feature/x");
 * assertEquals(branchValue("HEAD"), "HEAD");
 * assertEquals(branchValue("refs/remotes/origin/main"), "refs/remotes/origin/main");
 * ```
 * @param ref What {@linkcode parseHeadRef} read.
 * @returns The value for `parent_branch`.
 */
export function branchValue(ref: string): string {
  return ref.startsWith("refs/heads/") ? ref.slice("refs/heads/".length) : ref;
}

/**
 * The ref a block's `parent_branch` names in tether's own spelling: `HEAD` (detached) or
 * `refs/heads/<value>`. (The seed's spelling `heads/<name>` is checked against git, see
 * {@linkcode spelledHere}.)
 *
 * @example Branch and detached
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(branchRef("main"), "refs/heads/main");
 * assertEquals(branchRef("HEAD"), "HEAD");
 * ```
 * @param value The block's value.
 * @returns The ref it names.
 */
export function branchRef(value: string): string {
  return value === "HEAD" ? "HEAD" : `refs/heads/${value}`;
}

/**
 * The arguments that print, from one process, the ref HEAD is on and the seed's spelling of
 * it: `git rev-parse --symbolic-full-name HEAD --abbrev-ref HEAD`.
 */
export const SPELLING_ARGS: readonly string[] = [
  "rev-parse",
  "--symbolic-full-name",
  "HEAD",
  "--abbrev-ref",
  "HEAD",
];

/**
 * The spellings `git rev-parse --abbrev-ref` gives a ref HEAD is on: its short name,
 * `<kind>/<name>` and the full ref (git takes the shortest that no other ref shares), so a
 * branch `release` beside a tag `release` is `heads/release`; `HEAD` when detached.
 *
 * @example A branch, detached, and a tag
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(abbreviations("refs/heads/release"), ["release", "heads/release", "refs/heads/release"]);
 * assertEquals(abbreviations("HEAD"), ["HEAD"]);
 * assertEquals(abbreviations("refs/tags/v2.1"), ["v2.1", "tags/v2.1", "refs/tags/v2.1"]);
 * ```
 * @param ref What {@linkcode parseHeadRef} read.
 * @returns The spellings.
 */
export function abbreviations(ref: string): string[] {
  const m = /^refs\/([^/]+)\/(.+)$/.exec(ref);
  return m ? [m[2]!, `${m[1]}/${m[2]}`, ref] : [ref];
}

/** What {@linkcode SPELLING_ARGS} printed: the ref HEAD is on and the seed's spelling of it. */
export interface Spelling {
  /** The full ref (`refs/heads/release`), or `HEAD` when detached. */
  ref: string;
  /** What `git rev-parse --abbrev-ref HEAD` printed (`heads/release`). */
  abbrev: string;
}

/**
 * Read {@linkcode SPELLING_ARGS} output: two lines, the full ref and one of its
 * {@linkcode abbreviations}. Anything else is no answer (git prints nothing for either when
 * a ref named `HEAD` makes `HEAD` ambiguous).
 *
 * @example The branch a tag shares its name with, and no answer
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const r = (out: string) => ({ code: 0, stdout: new TextEncoder().encode(out), stderr: "" });
 * assertEquals(parseSpelling(r("refs/heads/release\nheads/release\n")), { ref: "refs/heads/release", abbrev: "heads/release" });
 * assertEquals(parseSpelling(r("refs/heads/release\ntags/release\n")), undefined);
 * assertEquals(parseSpelling(r("")), undefined);
 * ```
 * @param result What git returned.
 * @returns The ref and its spelling, or undefined.
 */
export function parseSpelling(result: GitResult): Spelling | undefined {
  if (result.code !== 0) return undefined;
  const m = /^([^\n]+)\n([^\n]+)\n$/.exec(decoder.decode(result.stdout));
  if (!m || !abbreviations(m[1]!).includes(m[2]!)) return undefined;
  return { ref: m[1]!, abbrev: m[2]! };
}

/**
 * Ask git for the ref HEAD is on and the seed's spelling of it.
 *
 * @param cwd Where (default: the current directory).
 * @returns The answer, or undefined when git gave no clear one.
 */
export async function readSpelling(cwd?: string): Promise<Spelling | undefined> {
  const r = await runGit(SPELLING_ARGS, {
    ...(cwd === undefined ? {} : { cwd }),
    parse: true,
    allowFailure: true,
  }).catch(() => undefined);
  return r && parseSpelling(r);
}

/**
 * Whether a block's `parent_branch` is the seed's spelling of the branch HEAD is on here:
 * `heads/<name>` or the full ref, exactly as `git rev-parse --abbrev-ref HEAD` prints it now
 * (so `heads/x` stays the branch `heads/x` wherever git spells the branch `x` plainly).
 * git is asked only when the value could be such a spelling.
 *
 * @param value The block's `parent_branch`.
 * @param headRef The ref HEAD is on, as the capture read it.
 * @param cwd Where the capture ran.
 * @returns True when git spells that ref so, and HEAD is still on it.
 */
export async function spelledHere(
  value: string,
  headRef: string,
  cwd: string | undefined,
): Promise<boolean> {
  // Only a branch: a tag or a remote-tracking ref that git prints alike is no branch.
  if (!headRef.startsWith("refs/heads/")) return false; // tether:guard f3-seed-branch-only
  if (!abbreviations(headRef).includes(value)) return false;
  const here = await readSpelling(cwd);
  return here !== undefined && here.ref === headRef && here.abbrev === value; // tether:guard f3-seed-spelling
}
