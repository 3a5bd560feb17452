/**
 * The one git runner, proven through the real binaries: hardening that changes no output,
 * caller values that look like options, SHA-256 repositories, and typed failures.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import { bashFingerprint, bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";

const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

async function wrapAndVerify(cwd: string, env: Record<string, string> = {}) {
  const wrapped = await bin("handshake", ["wrap"], { cwd, stdin: "task\n", env });
  const verified = await bin("verify", [], { cwd, stdin: wrapped.stdout, env });
  return { wrapped, verified };
}

async function realGit(): Promise<string> {
  return (await run("bash", ["-c", "command -v git"])).stdout.trim();
}

Deno.test("handshake and verify never run a repository's core.fsmonitor command", async () => {
  const repo = await makeRepo();
  const marker = join(await tempDir(), "fsmonitor-ran");
  const hook = join(await tempDir(), "fsmonitor-hook");
  await Deno.writeTextFile(hook, `#!/bin/sh\n: > "${marker}"\nexit 1\n`);
  await Deno.chmod(hook, 0o755);
  await git(repo, ["config", "core.fsmonitor", hook]);
  await git(repo, ["status", "--porcelain"]);
  assertOk(await exists(marker), "control: plain git status runs the fsmonitor hook");
  await Deno.remove(marker);
  const { wrapped, verified } = await wrapAndVerify(repo);
  assertEquals(wrapped.code, 0, wrapped.stderr);
  assertEquals(verified.code, 0, verified.stdout);
  assertEquals(await exists(marker), false);
});

Deno.test("handshake and verify leave a stat-dirty index unwritten (no optional locks)", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`f${i}.txt`] = `${i}\n`;
  const repo = await makeRepo({ files });
  const index = join(repo, ".git/index");
  let hoursAgo = 10;
  const touch = async () => { // a new, distinct past mtime: stat-dirty, never racily clean
    const past = new Date(Date.now() - 3_600_000 * hoursAgo--);
    for (let i = 0; i < 20; i++) await Deno.utime(join(repo, `f${i}.txt`), past, past);
  };
  await touch();
  const before = await Deno.readFile(index);
  await run("git", ["status", "--porcelain"], { cwd: repo });
  assertOk(
    !equalBytes(before, await Deno.readFile(index)),
    "control: plain git status rewrites the index",
  );
  await touch();
  const dirty = await Deno.readFile(index);
  const { verified } = await wrapAndVerify(repo);
  assertEquals(verified.code, 0, verified.stdout);
  assertOk(equalBytes(dirty, await Deno.readFile(index)), "tether wrote the index");
});

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

Deno.test("a branch and a directory named like options are data, never arguments", async () => {
  const repo = await makeRepo();
  await git(repo, ["update-ref", "refs/heads/--output=pwned", "HEAD"]);
  await git(repo, ["symbolic-ref", "HEAD", "refs/heads/--output=pwned"]);
  await Deno.mkdir(join(repo, "--output=dir"));
  await writeFiles(repo, { "--output=dir/a.txt": "a" });
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "dash dir"]);
  const cwd = join(repo, "--output=dir");
  const { wrapped, verified } = await wrapAndVerify(cwd);
  assertEquals(wrapped.code, 0, wrapped.stderr);
  const r = parseBlock(wrapped.stdout);
  assertEquals(r.kind === "block" && r.handshake.parent_branch, "--output=pwned");
  assertEquals(verified.code, 0, verified.stdout);
  assertEquals(await exists(join(cwd, "pwned")), false);
  assertEquals(await exists(join(repo, "pwned")), false);
  // A hostile block value that looks like an option is compared as data.
  const hostile = wrapped.stdout.replace("parent_cwd: ", "parent_cwd: /--output=x").replace(
    "parent_branch: --output=pwned",
    "parent_branch: --output=/tmp/tether-pwned",
  );
  const h = await bin("verify", ["--json"], { cwd, stdin: hostile });
  assertEquals(h.code, 1, h.stdout);
  assertEquals(JSON.parse(h.stdout).diverged, ["parent_branch", "parent_cwd"]);
  assertEquals(await exists("/tmp/tether-pwned"), false);
});

Deno.test("a SHA-256 object-format repository works end to end", async () => {
  const repo = await makeRepo({ objectFormat: "sha256" });
  const { wrapped, verified } = await wrapAndVerify(repo);
  assertEquals(wrapped.code, 0, wrapped.stderr);
  const r = parseBlock(wrapped.stdout);
  assertOk(r.kind === "block");
  assertEquals(r.handshake.parent_head.length, 64);
  assertEquals(r.handshake.parent_head, await git(repo, ["rev-parse", "HEAD"]));
  assertEquals(verified.code, 0, verified.stdout);
  await writeFiles(repo, { "new.txt": "n" });
  const after = await bin("verify", ["--json"], { cwd: repo, stdin: wrapped.stdout });
  assertEquals(after.code, 1);
  assertEquals(
    JSON.parse(after.stdout).observed.parent_dirty_fingerprint,
    await bashFingerprint(repo),
  );
});

Deno.test("git missing from PATH is a typed failure: handshake exit 3, verify error path", async () => {
  const repo = await makeRepo();
  const prompt = (await bin("handshake", ["wrap"], { cwd: repo, stdin: "t" })).stdout;
  const env = { PATH: await tempDir() };
  const h = await bin("handshake", [], { cwd: repo, env });
  assertEquals(h.code, 3);
  assertEquals(h.stdout, "");
  assertIncludes(h.stderr, "error: git is not installed or not on PATH");
  assertExcludes(h.stderr, "    at ");
  const v = await bin("verify", [], { cwd: repo, env, stdin: prompt });
  assertEquals(v.code, 3);
  assertIncludes(
    v.stdout,
    "environment-unverified: live git verification failed: git is not installed",
  );
});

Deno.test("a git older than 2.30 is refused with a typed error", async () => {
  const repo = await makeRepo();
  const shim = await tempDir();
  // A git that says it is 2.29.2, in `git version` and in its trace's version event.
  await Deno.writeTextFile(
    join(shim, "git"),
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = version ] && { echo "git version 2.29.2"; exit 0; }; done\n` +
      `err=$(mktemp); "${await realGit()}" "$@" 2>"$err"; rc=$?\n` +
      `sed 's/"exe":"[^"]*"/"exe":"2.29.2"/' "$err" >&2; rm -f "$err"; exit $rc\n`,
  );
  await Deno.chmod(join(shim, "git"), 0o755);
  const env = { PATH: `${shim}:${Deno.env.get("PATH")}` };
  const h = await bin("handshake", [], { cwd: repo, env });
  assertEquals(h.code, 3);
  assertIncludes(h.stderr, "older than 2.30");
  const v = await bin("verify", [], {
    cwd: repo,
    env,
    stdin: (await bin("handshake", [], { cwd: repo })).stdout,
  });
  assertEquals(v.code, 3);
  assertIncludes(v.stdout, "older than 2.30");
  // One with no trace at all names no version there: `git version` is asked.
  await Deno.writeTextFile(
    join(shim, "git"),
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = version ] && { echo "git version 2.29.2"; exit 0; }; done\n` +
      `unset GIT_TRACE2_EVENT\nexec "${await realGit()}" "$@"\n`,
  );
  const quiet = await bin("handshake", [], { cwd: repo, env });
  assertEquals(quiet.code, 3);
  assertIncludes(quiet.stderr, "older than 2.30");
});

Deno.test("LD_ and DYLD_ variables in the caller's environment do not stop git from running", async () => {
  const repo = await makeRepo();
  const env = { LD_TETHER_PROBE: "1", DYLD_TETHER_PROBE: "1" };
  const { wrapped, verified } = await wrapAndVerify(repo, env);
  assertEquals(wrapped.code, 0, wrapped.stderr);
  assertEquals(verified.code, 0, verified.stdout + verified.stderr);
});

Deno.test("the runner feeds a large input while reading a large output (no pipe deadlock)", async () => {
  const repo = await makeRepo();
  const { runGit } = await import("../src/git.ts");
  const ids = Array.from({ length: 20000 }, (_, i) => `${i}`.padStart(40, "0")).join("\n") + "\n";
  const r = await runGit(["cat-file", "--batch-check"], { cwd: repo, stdin: ids, parse: true });
  assertEquals(new TextDecoder().decode(r.stdout).split("\n").filter(Boolean).length, 20000);
});

Deno.test("the runner stops a git call that outlives its timeout with a typed error", async () => {
  const repo = await makeRepo();
  const fifo = join(repo, "pipe");
  const made = await run("mkfifo", [fifo]);
  if (made.code !== 0) return; // no mkfifo on this platform
  const { runGit } = await import("../src/git.ts");
  const { GitError } = await import("../src/git_error.ts");
  const started = performance.now();
  let caught: unknown;
  try {
    await runGit(["hash-object", "--", "pipe"], { cwd: repo, timeoutMs: 300 });
  } catch (error) {
    caught = error;
  }
  assertOk(caught instanceof GitError, String(caught));
  assertIncludes((caught as Error).message, "took longer than 300 ms");
  assertOk(performance.now() - started < 10_000);
});
