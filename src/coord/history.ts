/**
 * Read from git, in a bounded number of calls, the commit facts a visibility decision
 * needs: which of a set of commit ids exist, and the history between them and `base`.
 *
 * @module
 */
import { runGit } from "../git.ts";
import type { At } from "./identity.ts";
import { PolicyError } from "./errors.ts";
import type { Policy } from "./policy.ts";
import type { History, Ownership } from "./visibility.ts";

const decoder = new TextDecoder();

/**
 * Which of some full object ids are commits, in one `git cat-file --batch-check` call
 * (ids go on stdin, never as arguments).
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param ids Validated full object ids.
 * @returns id → object type (`commit`, `tree`, `blob`, `tag`), absent when missing (git's
 * `<id> missing` is never taken for a type).
 * @throws {GitError} when git fails.
 */
export async function objectTypes(at: At, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let pending = [...ids];
  // In a partial clone git dies on a promised object it may not fetch; everything answered
  // before it stands, the object it died on counts as missing, and the rest is asked again.
  while (pending.length > 0) {
    const result = await runGit(["cat-file", "--batch-check=%(objectname) %(objecttype)"], {
      ...at,
      parse: true,
      allowFailure: true,
      stdin: pending.join("\n") + "\n",
    });
    const lines = decoder.decode(result.stdout).split("\n");
    let answered = 0;
    for (const id of pending) {
      const line = lines[answered];
      if (line === undefined || line === "") break;
      // `<id> missing` (and `ambiguous`) is git saying there is no such object, not a type.
      const match = /^([0-9a-f]+) (commit|tree|blob|tag)$/.exec(line); // GUARD:missing-is-no-type
      if (match?.[1] === id && match[2]) out.set(id, match[2]);
      answered++;
    }
    if (result.code === 0) break;
    pending = pending.slice(answered + 1);
  }
  return out;
}

/**
 * Load the history visibility decisions need for a set of commits: which exist, and every
 * commit reachable from them but not from `base`, with its parents (one `rev-list`). Every
 * amend's source (the commit an amend replaced, see {@linkcode Ownership}) is loaded the
 * same way, whether or not it is reachable from the commits asked about, so that a
 * decision can follow sources as it follows parents.
 * Grafts, shallow files and replace refs are switched off for coord's git calls (see
 * {@linkcode openRepo}) and the commit-graph cache is not consulted, so parents are read
 * from the commit objects themselves; when git cannot walk the whole history (a truly
 * shallow repository, a missing parent) the history is incomplete and no lane but
 * Primary may inspect anything (fail closed, never an error that names a commit).
 *
 * @param at Where and how to run git (the caller's worktree).
 * @param policy Today's policy (for `base`).
 * @param commits Validated full commit ids.
 * @param ownership Commit → lane from the reflogs.
 * @returns The facts.
 * @throws {PolicyError} when STATUS names a base that is no commit here.
 * @throws {GitError} when git fails.
 */
export async function loadHistory(
  at: At,
  policy: Policy,
  commits: readonly string[],
  ownership: Ownership,
): Promise<History> {
  const sources = [...(ownership.sources?.values() ?? [])].flat();
  const wanted = [...new Set([...commits, ...sources])];
  const types = await objectTypes(
    at,
    policy.base === undefined ? wanted : [...wanted, policy.base],
  );
  if (policy.base !== undefined && types.get(policy.base) !== "commit") {
    throw new PolicyError(`STATUS base "${policy.base}" is no commit in this repository`);
  }
  const existing = wanted.filter((c) => types.get(c) === "commit");
  const parents = new Map<string, string[]>();
  let complete = ownership.complete;
  if (existing.length > 0) {
    const input =
      [...existing, ...(policy.base === undefined ? [] : [`^${policy.base}`])].join("\n") + "\n";
    const result = await runGit(
      ["-c", "core.commitGraph=false", "rev-list", "--parents", "--stdin"],
      { ...at, parse: true, allowFailure: true, stdin: input },
    );
    if (result.code !== 0) complete = false;
    for (const line of decoder.decode(result.stdout).split("\n")) {
      if (line === "") continue;
      const [commit, ...rest] = line.split(" ");
      if (commit) parents.set(commit, rest);
    }
  }
  return {
    commits: new Set(existing),
    parents,
    owners: ownership.owners,
    sources: ownership.sources ?? new Map(),
    hasBase: policy.base !== undefined,
    complete,
  };
}
