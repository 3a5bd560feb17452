/**
 * `gate --since` observes the tree only after the child's result has ended on stdin (a child
 * still at work while its result is piped is observed as it ends), and a usage error,
 * `--help` and `--version` run no git.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { result, spawn } from "./_gate_fixture.ts";
import { bin, commitAll, gitShim, makeRepo, ROOT, writeFiles } from "./_helpers.ts";

/**
 * A `git` first on PATH that runs the real git, then logs its arguments to `calls.log`: a
 * line means that call has finished.
 */
async function loggingShim(): Promise<{ log: string; env: Record<string, string> }> {
  const shim = await gitShim(`"$REAL" "$@"; rc=$?; echo "$*" >> "$DIR/calls.log"; exit $rc`);
  const log = join(shim.dir, "calls.log");
  await Deno.writeTextFile(log, "");
  return { log, env: { NO_COLOR: "1", ...shim.env } };
}

const calls = async (log: string) => (await Deno.readTextFile(log)).split("\n").filter(Boolean);

/** Wait until `log` records a finished `git status`, or `ms` have passed. */
async function statusRead(log: string, ms: number): Promise<void> {
  const done = async () => (await calls(log)).some((line) => / status /.test(` ${line} `));
  for (let waited = 0; waited < ms && !(await done()); waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
  }
}

Deno.test({
  name:
    "a child still at work while its result is piped to gate --since is observed as it ends, its unclaimed deletion and its claimed new file alike",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n", "lib.ts": "l\n" } });
  const shim = await loggingShim();
  try {
    const since = await spawn(repo);
    const gate = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        ...PERMISSIONS.gate,
        join(ROOT, "gate.ts"),
        "--json",
        "--since",
        since,
      ],
      cwd: repo,
      env: shim.env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // Gate is started on the pipe; a gate that read the tree now would have read its status
    // before the child's work. The child works, then writes its result and closes the pipe.
    await statusRead(shim.log, 6000);
    await writeFiles(repo, { "app.ts": "child\n", "new.txt": "n\n" });
    await Deno.remove(join(repo, "lib.ts"));
    const w = gate.stdin.getWriter();
    await w.write(new TextEncoder().encode(result(["app.ts", "new.txt"], [
      { kind: "file", ref: "app.ts", ok: true },
      { kind: "file", ref: "new.txt", ok: true },
    ])));
    await w.close();
    const out = await gate.output();
    const text = new TextDecoder().decode(out.stdout);
    const report = JSON.parse(text);
    assertEquals(report.changes, {
      confirmed: ["app.ts", "new.txt"],
      claimed_unobserved: [],
      observed_unclaimed: ["lib.ts"],
    }, text);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test({
  name: "a gate --since usage error, --help and --version run no git",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  const shim = await loggingShim();
  try {
    const since = await spawn(repo);
    await commitAll(repo, "base");
    for (
      const [args, code] of [
        [["--since", since, "--bogus"], 2],
        [["--since", since, "stray"], 2],
        [["--since", since, "--since", since], 2],
        [["--since", since, "--help"], 0],
        [["--since", since, "--version"], 0],
      ] as const
    ) {
      const r = await bin("gate", [...args], { cwd: repo, env: shim.env, stdin: "{}" });
      assertEquals(r.code, code, r.stdout + r.stderr);
      await new Promise((resolve) => setTimeout(resolve, 300)); // a git it started would log by now
      assertEquals(await calls(shim.log), [], `git ran for gate ${args.join(" ")}`);
    }
    // The same command line, well formed, does run git (the shim sees it).
    const ok = await bin("gate", ["--since", since], {
      cwd: repo,
      env: shim.env,
      stdin: result([], [{ kind: "file", ref: "app.ts", ok: true }]),
    });
    assertOk((await calls(shim.log)).length > 0, ok.stdout + ok.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
