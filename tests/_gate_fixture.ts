/**
 * Shared pieces of the gate tests: a child's SubagentResult, the parent's spawn with
 * `--context`, and `gate --json` through the real binary under its exact flags.
 *
 * @module
 */
import { assertEquals } from "../src/_assert.ts";
import { bin, git, makeRepo, writeFiles } from "./_helpers.ts";

/**
 * A child's result claiming `files` with `evidence`, `ok: true` unless `extra` says otherwise.
 *
 * @param files `files_changed`.
 * @param evidence The evidence items.
 * @param extra Keys that replace or add to the defaults.
 * @returns The JSON text.
 */
export function result(
  files: string[],
  evidence: unknown[],
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence,
    ...extra,
  });
}

/**
 * The parent wraps a task with `--context` in `repo`.
 *
 * @param repo The repository.
 * @returns The snapshot id.
 */
export async function spawn(repo: string): Promise<string> {
  const r = await bin("handshake", ["--json", "--context"], { cwd: repo });
  assertEquals(r.code, 0, r.stderr);
  return JSON.parse(r.stdout).snapshot_id;
}

/**
 * Run `gate --json` in `repo` with the result on stdin.
 *
 * @param repo The repository.
 * @param stdin The child's result.
 * @param args More arguments (`--since`, `--done`, …).
 * @returns Exit code, stderr and the parsed report (undefined when stdout is empty).
 */
export async function gate(repo: string, stdin: string, args: string[] = []) {
  const r = await bin("gate", ["--json", ...args], { cwd: repo, stdin });
  return {
    code: r.code,
    stderr: r.stderr,
    // deno-lint-ignore no-explicit-any
    report: r.stdout ? JSON.parse(r.stdout) as any : undefined,
  };
}

/**
 * The result of a child that changed and committed `a.ts` (commit and file evidence) and
 * claims `more` besides, saying nothing of anything else.
 *
 * @param head The child's commit.
 * @param more Further claimed paths.
 * @returns The JSON text.
 */
export function claimA(head: string, more: string[] = []): string {
  return result(["a.ts", ...more], [{ kind: "commit", ref: head, ok: true }, {
    kind: "file",
    ref: "a.ts",
    ok: true,
  }]);
}

/**
 * A repository holding `files` (by default `a.ts`, `b.ts`, `lib/c.ts`), `setup` run in it, a
 * spawn with `--context`, then the child's commit of a new `a.ts`.
 *
 * @param setup What the parent does before the spawn.
 * @param files The first commit's files.
 * @returns The repository, the snapshot id and the child's commit.
 */
export async function childOfSpawn(
  setup?: (repo: string) => Promise<void>,
  files: Record<string, string> = { "a.ts": "a1\n", "b.ts": "b1\n", "lib/c.ts": "c1\n" },
): Promise<{ repo: string; since: string; head: string }> {
  const repo = await makeRepo({ files });
  await setup?.(repo);
  const since = await spawn(repo);
  await writeFiles(repo, { "a.ts": "a2\n" });
  await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
  return { repo, since, head: await git(repo, ["rev-parse", "HEAD"]) };
}
