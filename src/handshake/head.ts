/**
 * HEAD read apart from the capture's reader: its commit, the ref it is attached to, and a
 * digest of its reflogs (what proves HEAD held still across a status).
 *
 * @module
 */
import { GitError, type GitResult, UNBORN_MESSAGE } from "../git_error.ts";
import { at } from "./probe.ts";
import { parseHeadRef } from "./branch.ts";
import { runGit } from "../git.ts";

const decoder = new TextDecoder();

export async function reflogId(
  reflogs: readonly string[],
  cwd: string | undefined,
): Promise<string> {
  const r = await runGit(["hash-object", "--no-filters", "--", ...reflogs], {
    ...at(cwd),
    allowFailure: true,
  });
  if (r.code !== 0) {
    await readHeadOid(cwd); // a repository without commits has no reflog either: say that
    throw noReflog(reflogs, r);
  }
  return decoder.decode(r.stdout).replace(/\n$/, "");
}

export function noReflog(reflogs: readonly string[], r?: GitResult): GitError {
  return new GitError(
    "failed",
    (reflogs.length > 1 ? "HEAD or the branch it is attached to" : "HEAD") +
      " has no reflog to show it held still during the capture (core.logAllRefUpdates " +
      "is off, refs are not files, or the branch was made without one)",
    r?.stderr ?? "",
    r?.code ?? -1,
  );
}

export async function readHeadOid(cwd: string | undefined): Promise<string> {
  const r = await runGit(["rev-parse", "--verify", "-q", "HEAD"], {
    ...at(cwd),
    parse: true,
    allowFailure: true,
  });
  const text = decoder.decode(r.stdout);
  if (r.code === 1 && text === "") throw new GitError("unborn", UNBORN_MESSAGE, r.stderr, 1);
  if (r.code !== 0 || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})\n$/.test(text)) {
    throw new GitError("failed", "Cannot read HEAD: git rev-parse gave no clear answer");
  }
  return text.slice(0, -1);
}

export async function readHeadRef(cwd: string | undefined): Promise<string> {
  const r = await runGit(["symbolic-ref", "-q", "HEAD"], {
    ...at(cwd),
    parse: true,
    allowFailure: true,
  });
  const ref = parseHeadRef(r);
  if (ref === undefined) {
    throw new GitError(
      "failed",
      `Cannot read the branch: git symbolic-ref gave no clear answer${
        r.stderr ? `: ${r.stderr.trim().split("\n").pop()}` : ""
      }`,
    );
  }
  return ref;
}
