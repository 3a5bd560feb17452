/**
 * Issue 26: Step 0 in few git processes, and none left behind. A v1 `verify` and a
 * `handshake` start at most five git processes (counted through a `git` shim first on
 * PATH, not timed), and no process `verify` started is still running once it has exited,
 * whichever path it took: it runs as the leader of a process group of its own (`setsid`),
 * every git it starts is slowed down by the shim, and the group must be empty at its exit.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { bin, git, gitShim, makeRepo, ROOT, run, writeFiles } from "./_helpers.ts";

/** The most git processes a v1 `verify` or `handshake` may start. */
const MOST = 5;

/** A shim that logs one line per git process. */
function counting(): Promise<{ dir: string; env: Record<string, string> }> {
  return gitShim(`echo "$*" >> "$DIR/log"`);
}

async function calls(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(dir, "log")).catch(() => "");
  await Deno.writeTextFile(join(dir, "log"), "");
  return text.split("\n").filter(Boolean).map((line) =>
    line.replace(/^.* core\.commitGraph=false /, "")
  );
}

Deno.test(`verify and handshake (v1) start at most ${MOST} git processes`, async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n", "src/b.ts": "b\n" } });
  const shim = await counting();
  try {
    await writeFiles(repo, { "a.txt": "edited\n", "new.txt": "n\n" });
    // As a shell starts them: $PWD names the directory.
    const env = { ...shim.env, PWD: repo };
    const made = await bin("handshake", ["wrap"], { cwd: repo, stdin: "task", env });
    assertEquals(made.code, 0, made.stderr);
    const handshake = await calls(shim.dir);
    assertOk(handshake.length <= MOST, `handshake: ${handshake.length}\n${handshake.join("\n")}`);
    const r = await bin("verify", [], { cwd: repo, stdin: made.stdout, env });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const verify = await calls(shim.dir);
    assertOk(verify.length <= MOST, `verify: ${verify.length}\n${verify.join("\n")}`);
    // The same holds in a subdirectory and on a detached HEAD.
    await git(repo, ["checkout", "-q", "--detach"]);
    const sub = join(repo, "src");
    const detached = await bin("handshake", ["wrap"], {
      cwd: sub,
      stdin: "task",
      env: { ...env, PWD: sub },
    });
    assertEquals(detached.code, 0, detached.stderr);
    assertOk((await calls(shim.dir)).length <= MOST);
    const again = await bin("verify", [], { cwd: sub, stdin: detached.stdout, env });
    assertEquals(again.code, 0, again.stdout + again.stderr);
    assertOk((await calls(shim.dir)).length <= MOST);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(shim.dir, { recursive: true });
  }
});

/** The processes whose process group is `group`, as `ps` lists them. */
async function members(group: number): Promise<string[]> {
  const ps = await run("ps", ["-e", "-o", "pgid=,pid=,args="]);
  assertEquals(ps.code, 0, ps.stderr);
  return ps.stdout.split("\n").filter((line) => Number(line.trim().split(/\s+/)[0]) === group);
}

Deno.test({
  name:
    "no process verify started outlives it, on every path (match, mismatch, missing, error, help)",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    const repo = await makeRepo({ files: { "a.txt": "a\n" } });
    // Every git waits a little before it runs: one verify did not wait for is still there.
    const shim = await gitShim("/bin/sleep 0.2");
    try {
      const block = (await bin("handshake", [], { cwd: repo })).stdout;
      const cases: [string, string[], string, number][] = [
        ["match", [], block, 0],
        ["missing", [], "no block here\n", 4],
        ["error", [], block.replace(/parent_head: .*/, "parent_head: nothex"), 3],
        ["help", ["--help"], "", 0],
        ["mismatch", [], block, 1], // after b.txt is written
      ];
      for (const [what, args, stdin, code] of cases) {
        if (what === "mismatch") await writeFiles(repo, { "b.txt": "b\n" });
        const pidFile = join(shim.dir, `${what}.pid`);
        const verify = [
          Deno.execPath(),
          "run",
          "--quiet",
          "--no-prompt",
          ...PERMISSIONS.verify,
          join(ROOT, "verify.ts"),
          ...args,
        ];
        // setsid makes the shell (then verify, which it becomes) the leader of a new group.
        const r = await run(
          "setsid",
          ["sh", "-c", 'echo $$ > "$0"; exec "$@"', pidFile, ...verify],
          {
            cwd: repo,
            stdin,
            env: { ...shim.env, NO_COLOR: "1" },
          },
        );
        assertEquals(r.code, code, `${what}: ${r.stdout}${r.stderr}`);
        const group = Number((await Deno.readTextFile(pidFile)).trim());
        assertOk(group > 1, what);
        assertEquals(await members(group), [], `${what}: left running`);
      }
    } finally {
      await Deno.remove(repo, { recursive: true });
      await Deno.remove(shim.dir, { recursive: true });
    }
  },
});
