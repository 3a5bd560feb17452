/**
 * Shared pieces of the gate tests: a child's SubagentResult, the parent's spawn with
 * `--context`, and `gate --json` through the real binary under its exact flags.
 *
 * @module
 */
import { assertEquals } from "../src/_assert.ts";
import { bin } from "./_helpers.ts";

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
