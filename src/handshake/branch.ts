/**
 * The branch a block names. tether reads HEAD's ref (`git symbolic-ref HEAD`), so a tag or a
 * remote named like the branch cannot pass for it.
 *
 * @module
 */
import type { GitResult } from "../git.ts";

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
 * `refs/heads/<value>`.
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
