/**
 * Bench for the working context and the evidence gate on a large dirty tree: 10,000
 * changed files at spawn, a child that changes 200 more, then `gate --since` run as
 * the binary runs (`deno run --allow-run=git gate.ts`). Called from `scripts/bench.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { captureWorkingContext } from "../src/context/capture.ts";
import { gitText, runGit } from "../src/git.ts";
import { PERMISSIONS } from "../src/permissions.ts";

const FILES = 10_000;
const CHILD_EDITS = 100;
const CHILD_NEW = 100;
const RUNS = 3;

const GATE = new URL("../gate.ts", import.meta.url).pathname;
const FIXTURE_ENV = {
  GIT_AUTHOR_NAME: "Bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};

function name(i: number): string {
  return `d${String(i % 100).padStart(2, "0")}/f${String(i).padStart(5, "0")}.txt`;
}

async function writeAll(dir: string, count: number, content: (i: number) => string, offset = 0) {
  for (let i = offset; i < offset + count; i++) {
    const path = join(dir, name(i));
    if (i < 100 + offset || offset > 0) await Deno.mkdir(join(path, ".."), { recursive: true });
    await Deno.writeTextFile(path, content(i));
  }
}

async function timeGate(
  dir: string,
  since: string,
  stdin: string,
): Promise<{ ms: number; code: number; out: string }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...PERMISSIONS.gate, GATE, "--since", since, "--json"],
    cwd: dir,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const output = await child.output();
  return {
    ms: performance.now() - started,
    code: output.code,
    out: new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/**
 * Build the large tree in a temp dir, time the snapshot capture and `gate --since`, and
 * describe the results.
 *
 * @returns Human-readable result lines.
 * @throws {Error} when gate does not accept the honest child's result.
 */
export async function benchGate(): Promise<string[]> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-bench-gate-" }));
  try {
    const git = (args: string[]) => runGit(args, { cwd: dir, env: FIXTURE_ENV });
    await git(["init", "-q", "-b", "main"]);
    await writeAll(dir, FILES, (i) => `file ${i}\n`);
    await git(["add", "-A"]);
    await git(["commit", "-q", "-m", "10,000 files"]);
    await writeAll(dir, FILES, (i) => `file ${i}, edited by the parent\n`);

    let started = performance.now();
    const context = await captureWorkingContext({
      recent: [name(0)],
      audience: "private",
      cwd: dir,
    });
    const captureMs = performance.now() - started;
    const since = context.snapshotId!;

    // The child edits 100 already-dirty files further and adds 100 new ones, which it commits.
    await writeAll(dir, CHILD_EDITS, (i) => `file ${i}, edited by the child\n`);
    await writeAll(dir, CHILD_NEW, (i) => `new ${i}\n`, FILES);
    const claimed = [
      ...Array.from({ length: CHILD_EDITS }, (_, i) => name(i)),
      ...Array.from({ length: CHILD_NEW }, (_, i) => name(FILES + i)),
    ];
    await git(["add", "--", ...claimed.slice(CHILD_EDITS)]);
    await git(["commit", "-q", "-m", "child"]);
    const head = await gitText(["rev-parse", "HEAD"], { cwd: dir });
    const result = JSON.stringify({
      ok: true,
      summary: "bench child",
      files_changed: claimed,
      errors: [],
      evidence: [{ kind: "commit", ref: head, ok: true }],
    });

    const times: number[] = [];
    let last = { ms: 0, code: -1, out: "" };
    for (let i = 0; i < RUNS; i++) {
      last = await timeGate(dir, since, result);
      if (last.code !== 0) {
        throw new Error(
          `gate did not accept the bench child (exit ${last.code}): ${last.out.slice(0, 400)}`,
        );
      }
      times.push(last.ms);
    }
    const report = JSON.parse(last.out);
    started = performance.now();
    const entries =
      (await gitText(["status", "--porcelain=v1", "-uall"], { cwd: dir })).split("\n").length;
    const statusMs = performance.now() - started;
    return [
      `gate: tree of ${FILES} committed files, ${entries} status entries at completion`,
      `gate: snapshot capture (captureWorkingContext, in process) ${captureMs.toFixed(0)} ms`,
      `gate: gate --since --json (deno run --allow-run=git gate.ts), median of ${RUNS}: ${
        median(times).toFixed(0)
      } ms (runs ${times.map((t) => t.toFixed(0)).join(", ")} ms)`,
      `gate: plain git status --porcelain -uall on the same tree: ${statusMs.toFixed(0)} ms`,
      `gate: verdict ${report.verdict}, confirmed ${report.changes.confirmed.length}, claimed_unobserved ${report.changes.claimed_unobserved.length}, observed_unclaimed ${report.changes.observed_unclaimed.length}`,
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  for (const line of await benchGate()) console.log(line);
}
