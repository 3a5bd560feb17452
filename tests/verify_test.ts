/**
 * `verify` through the real entry point, `deno run --allow-run=git` only: the four paths,
 * their exit codes and texts, on real throwaway repositories.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, makeRepo, tempDir, writeFiles } from "./_helpers.ts";

async function dispatch(cwd: string, prompt = "Task: review.\n"): Promise<string> {
  const r = await bin("handshake", ["wrap"], { cwd, stdin: prompt });
  if (r.code !== 0 || !r.stdout.includes("subagent-env-handshake v1")) throw new Error(r.stderr);
  return r.stdout;
}

Deno.test("verify matches the parent's own tree and prints head on branch", async () => {
  const repo = await makeRepo();
  const r = await bin("verify", [], { cwd: repo, stdin: await dispatch(repo) });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertEquals(
    r.stdout,
    `environment-verified: ${await git(repo, ["rev-parse", "HEAD"])} on main\n`,
  );
});

Deno.test("verify reports mismatch when a sibling wrote a scratch file", async () => {
  const repo = await makeRepo();
  const prompt = await dispatch(repo);
  await writeFiles(repo, { "scratch.log": "sibling output" });
  const r = await bin("verify", [], { cwd: repo, stdin: prompt });
  assertEquals(r.code, 1);
  assertOk(r.stdout.startsWith("## Finding: environment-divergence (halting)\n"));
  assertIncludes(r.stdout, "**Diverged fields:** parent_dirty_fingerprint\n");
});

Deno.test("verify reports every diverged field in schema order after a commit on another branch", async () => {
  const repo = await makeRepo();
  const prompt = await dispatch(repo);
  await git(repo, ["checkout", "-q", "-b", "other"]);
  await commitAll(repo, "moved");
  await Deno.mkdir(join(repo, "sub"));
  await writeFiles(repo, { "sub/x.txt": "x" });
  const r = await bin("verify", ["--json"], { cwd: join(repo, "sub"), stdin: prompt });
  assertEquals(r.code, 1);
  const doc = JSON.parse(r.stdout);
  assertEquals(doc.status, "mismatch");
  assertEquals(doc.tag, "environment-divergence");
  assertEquals(doc.diverged, [
    "parent_head",
    "parent_branch",
    "parent_cwd",
    "parent_dirty_fingerprint",
  ]);
  assertEquals(doc.observed.parent_branch, "other");
  assertEquals(doc.reason, null);
});

Deno.test("verify with no block takes the missing path, exit 4", async () => {
  const repo = await makeRepo();
  const r = await bin("verify", [], { cwd: repo, stdin: "Just a task, no handshake.\n" });
  assertEquals(r.code, 4);
  assertEquals(r.stdout.split("\n")[0], "environment-unverified: no handshake");
  assertIncludes(r.stdout, "Tag every tree-grounded finding environment-unverified");
});

Deno.test("verify routes an unparseable block, a worktree mode and a broken first block to the error path", async () => {
  const repo = await makeRepo();
  const good = await dispatch(repo);
  const cases = [
    good.replace(/parent_head: [0-9a-f]{40}/, "parent_head: abc1234"),
    good.replace("workspace_mode: shared", "workspace_mode: worktree"),
    good.replace("workspace_mode: shared", "workspace_mode: isolated") + good,
    good.replace(/parent_branch: .*\n/, ""),
  ];
  for (const prompt of cases) {
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: prompt });
    assertEquals(r.code, 3, r.stdout);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.status, "error");
    assertEquals(doc.tag, "environment-unverified");
    assertOk(doc.reason.length > 0);
  }
});

Deno.test("verify outside a repository takes the error path with the git reason", async () => {
  const repo = await makeRepo();
  const prompt = await dispatch(repo);
  const r = await bin("verify", [], { cwd: await tempDir(), stdin: prompt });
  assertEquals(r.code, 3);
  assertOk(r.stdout.startsWith("environment-unverified: live git verification failed: "), r.stdout);
  assertIncludes(r.stdout, "Not a git repository");
  assertExcludes(r.stderr, "    at ");
});

Deno.test("verify tolerates CRLF, a BOM and a block in the middle of the prompt", async () => {
  const repo = await makeRepo();
  const block = await dispatch(repo, "");
  const prompt = `\uFEFFIntro line\r\n\r\n${block.replace(/\n/g, "\r\n")}\r\nThe task.\r\n`;
  const r = await bin("verify", [], { cwd: repo, stdin: prompt });
  assertEquals(r.code, 0, r.stdout);
});

Deno.test("verify matches a detached HEAD on both sides", async () => {
  const repo = await makeRepo();
  await commitAll(repo, "two");
  await git(repo, ["checkout", "-q", "--detach", "HEAD~1"]);
  const r = await bin("verify", [], { cwd: repo, stdin: await dispatch(repo) });
  assertEquals(r.code, 0, r.stdout);
  assertOk(r.stdout.endsWith(" on HEAD\n"));
});

Deno.test("verify treats a symlinked spelling of the same directory as the same cwd", async () => {
  const repo = await makeRepo();
  await Deno.mkdir(join(repo, "pkg"));
  await writeFiles(repo, { "pkg/a.txt": "a" });
  await commitAll(repo, "pkg");
  const link = join(await tempDir(), "link-to-repo");
  await Deno.symlink(repo, link);
  const prompt = (await dispatch(join(repo, "pkg"))).replace(
    `parent_cwd: ${join(repo, "pkg")}`,
    `parent_cwd: ${join(link, "pkg")}/`,
  );
  assertIncludes(prompt, `parent_cwd: ${link}`);
  const r = await bin("verify", [], { cwd: join(repo, "pkg"), stdin: prompt });
  assertEquals(r.code, 0, r.stdout);
  const elsewhere = prompt.replace(`parent_cwd: ${join(link, "pkg")}/`, `parent_cwd: ${link}`);
  const r2 = await bin("verify", ["--json"], { cwd: join(repo, "pkg"), stdin: elsewhere });
  assertEquals(JSON.parse(r2.stdout).diverged, ["parent_cwd"]);
});

Deno.test("verify takes the six fields as flags", async () => {
  const repo = await makeRepo();
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const args = ["--head", head, "--branch", "main", "--cwd", repo, "--fingerprint", "e3b0c44298fc"];
  assertEquals((await bin("verify", args, { cwd: repo })).code, 0);
  const wrong = await bin("verify", [...args.slice(0, 6), "--fingerprint", "000000000000"], {
    cwd: repo,
  });
  assertEquals(wrong.code, 1);
  const bad = await bin("verify", [...args.slice(0, 6), "--fingerprint", "nothex"], { cwd: repo });
  assertEquals(bad.code, 3);
  const partial = await bin("verify", ["--head", head], { cwd: repo });
  assertEquals(partial.code, 2);
});

Deno.test("verify --max-age turns an old block into the error path", async () => {
  const repo = await makeRepo();
  const old = (await dispatch(repo)).replace(
    /handshake_issued_at: .*/,
    "handshake_issued_at: 2020-01-01T00:00:00.0000000Z",
  );
  const r = await bin("verify", ["--max-age", "10m"], { cwd: repo, stdin: old });
  assertEquals(r.code, 3);
  assertIncludes(r.stdout, "older than the maximum age");
  assertEquals((await bin("verify", [], { cwd: repo, stdin: old })).code, 0);
  assertEquals((await bin("verify", ["--max-age", "soon"], { cwd: repo, stdin: old })).code, 2);
});

Deno.test("verify: eight verifiers started at once on one tree all match without index.lock errors", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 300; i++) files[`src/f${i}.txt`] = `${i}\n`;
  const repo = await makeRepo({ files });
  const prompt = await dispatch(repo);
  // Make the index stat-dirty so a plain `git status` would want to refresh it and lock.
  const later = new Date(Date.now() + 5000);
  for (let i = 0; i < 300; i++) await Deno.utime(join(repo, `src/f${i}.txt`), later, later);
  const runs = await Promise.all(
    Array.from({ length: 8 }, () => bin("verify", [], { cwd: repo, stdin: prompt })),
  );
  for (const r of runs) {
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertExcludes(r.stderr, "index.lock");
  }
  assertEquals(await Deno.stat(join(repo, ".git/index.lock")).then(() => true, () => false), false);
});

Deno.test("verify with too large an input takes the error path without a stack trace", async () => {
  const repo = await makeRepo();
  const big = new Uint8Array(16 * 1024 * 1024 + 10).fill(0x61);
  const r = await bin("verify", [], { cwd: repo, stdin: big });
  assertEquals(r.code, 3);
  assertIncludes(
    r.stdout,
    "environment-unverified: handshake block unparseable: Standard input is larger",
  );
  assertEquals(r.stderr, "");
});

Deno.test("verify: GIT_DIR/GIT_WORK_TREE pointing at this tree from outside take the error path", async () => {
  const repo = await makeRepo();
  const prompt = await dispatch(repo);
  const elsewhere = await tempDir();
  const env = { GIT_DIR: join(repo, ".git"), GIT_WORK_TREE: repo };
  const r = await bin("verify", ["--json"], { cwd: elsewhere, stdin: prompt, env });
  assertEquals(r.code, 3, r.stdout);
  assertIncludes(JSON.parse(r.stdout).reason, "git's environment points it away");
});

Deno.test("verify: core.worktree elsewhere does not make the git dir's subdirectory the top level", async () => {
  const gitHome = await makeRepo();
  const tree = await tempDir();
  await git(gitHome, ["config", "core.worktree", tree]);
  await Deno.mkdir(join(gitHome, "sub"));
  const block = await bin("handshake", [
    "--head",
    await git(gitHome, ["rev-parse", "HEAD"]),
    "--branch",
    "main",
    "--cwd",
    join(gitHome, "sub"),
    "--fingerprint",
    "e3b0c44298fc",
  ]);
  const r = await bin("verify", ["--json"], { cwd: gitHome, stdin: block.stdout });
  assertEquals(JSON.parse(r.stdout).diverged.includes("parent_cwd"), true, r.stdout);
});

Deno.test("verify: a Windows-form parent_cwd on POSIX is not resolved relative to the current directory", async () => {
  const repo = await makeRepo();
  await Deno.mkdir(join(repo, "C:/x"), { recursive: true });
  const prompt = (await dispatch(repo)).replace(/parent_cwd: .*/, "parent_cwd: C:/..");
  const r = await bin("verify", ["--json"], { cwd: repo, stdin: prompt });
  assertEquals(r.code, 1, r.stdout);
  assertEquals(JSON.parse(r.stdout).diverged, ["parent_cwd"]);
});

Deno.test("verify: a newline in the repository path cannot make two directories compare equal", async () => {
  const base = await tempDir();
  const repo = await makeRepo();
  const odd = join(base, "r\nx");
  await Deno.rename(repo, odd);
  await Deno.mkdir(join(odd, "other"));
  const link = join(base, "L");
  await Deno.symlink(odd, link);
  const block = await bin("handshake", [
    "--head",
    await git(odd, ["rev-parse", "HEAD"]),
    "--branch",
    "main",
    "--cwd",
    link,
    "--fingerprint",
    "e3b0c44298fc",
  ]);
  const r = await bin("verify", ["--json"], { cwd: join(odd, "other"), stdin: block.stdout });
  assertEquals(r.code, 3, r.stdout);
  assertIncludes(JSON.parse(r.stdout).reason, "a git path holds a newline");
});

Deno.test("verify: a branch value no git branch can have takes the error path", async () => {
  const repo = await makeRepo();
  const prompt = (await dispatch(repo)).replace(
    "parent_branch: main",
    "parent_branch: main # comment",
  );
  const r = await bin("verify", [], { cwd: repo, stdin: prompt });
  assertEquals(r.code, 3, r.stdout);
});

Deno.test("verify --max-age refuses a block dated in the future", async () => {
  const repo = await makeRepo();
  const future = (await dispatch(repo)).replace(
    /handshake_issued_at: .*/,
    "handshake_issued_at: 2099-01-01T00:00:00.0000000Z",
  );
  const r = await bin("verify", ["--max-age", "1d"], { cwd: repo, stdin: future });
  assertEquals(r.code, 3);
  assertIncludes(r.stdout, "issued in the future");
});
