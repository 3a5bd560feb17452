/**
 * `handshake` through the real entry point, `deno run --allow-run=git` only, on real
 * throwaway repositories.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import {
  bashFingerprint,
  bin,
  commitAll,
  git,
  makeRepo,
  run,
  tempDir,
  writeFiles,
} from "./_helpers.ts";

function fieldsOf(text: string) {
  const r = parseBlock(text);
  if (r.kind !== "block") {
    throw new Error(`no block in ${JSON.stringify(text)}: ${JSON.stringify(r)}`);
  }
  return r.handshake;
}

Deno.test("handshake captures HEAD, branch, cwd and the bash fingerprint of a clean tree", async () => {
  const repo = await makeRepo();
  const r = await bin("handshake", [], { cwd: repo });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stderr, "");
  const f = fieldsOf(r.stdout);
  assertEquals(f.parent_head, await git(repo, ["rev-parse", "HEAD"]));
  assertEquals(f.parent_branch, "main");
  assertEquals(f.parent_cwd, repo);
  assertEquals(f.parent_dirty_fingerprint, "e3b0c44298fc");
  assertEquals(f.workspace_mode, "shared");
  assertOk(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/.test(f.handshake_issued_at));
  assertOk(r.stdout.startsWith("<!-- subagent-env-handshake v1 -->\n\nparent_head: "));
  assertOk(r.stdout.endsWith("\n\n<!-- /subagent-env-handshake -->\n"));
});

Deno.test("handshake fingerprint equals the bash recipe on CRLF, untracked dirs, non-ASCII and spaces", async () => {
  const repo = await makeRepo({
    files: { "crlf.txt": "a\r\nb\r\n", "plain.txt": "x\n", "dir/keep.txt": "k\n" },
  });
  await writeFiles(repo, {
    "crlf.txt": "a\r\nb\r\nc\r\n",
    "untracked/deep/one.txt": "1",
    "untracked/two.txt": "2",
    "naïve café.txt": "é",
    "with space/file name.txt": "s",
    "日本.md": "n",
    "tab\tname.txt": "t",
  });
  await git(repo, ["add", "plain.txt"]);
  await Deno.remove(join(repo, "dir/keep.txt"));
  const sub = join(repo, "with space");
  for (const cwd of [repo, sub]) {
    const r = await bin("handshake", [], { cwd });
    assertEquals(r.code, 0, r.stderr);
    const f = fieldsOf(r.stdout);
    assertEquals(f.parent_dirty_fingerprint, await bashFingerprint(cwd));
    assertEquals(f.parent_cwd, cwd);
  }
});

Deno.test("handshake on a detached HEAD records the literal HEAD as branch", async () => {
  const repo = await makeRepo();
  const head = await commitAll(repo, "second");
  await git(repo, ["checkout", "-q", "--detach", "HEAD~1"]);
  const f = fieldsOf((await bin("handshake", [], { cwd: repo })).stdout);
  assertEquals(f.parent_branch, "HEAD");
  assertEquals(f.parent_head === head, false);
  assertEquals(f.parent_head, await git(repo, ["rev-parse", "HEAD"]));
});

Deno.test("handshake in a linked worktree captures that worktree's branch and status", async () => {
  const repo = await makeRepo();
  const wt = join(await tempDir(), "lane");
  await git(repo, ["worktree", "add", "-q", "-b", "lane", wt]);
  await writeFiles(wt, { "scratch.txt": "x" });
  const f = fieldsOf((await bin("handshake", [], { cwd: wt })).stdout);
  assertEquals(f.parent_branch, "lane");
  assertEquals(f.parent_cwd, wt);
  assertEquals(f.parent_dirty_fingerprint, await bashFingerprint(wt));
  assertEquals(f.parent_dirty_fingerprint === "e3b0c44298fc", false);
});

Deno.test("handshake wrap puts the block first, a blank line, then the prompt unchanged", async () => {
  const repo = await makeRepo();
  const prompt = "Review src/a.ts\r\nand report.\n";
  const r = await bin("handshake", ["wrap"], { cwd: repo, stdin: prompt });
  assertEquals(r.code, 0, r.stderr);
  const [block, rest] = r.stdout.split("<!-- /subagent-env-handshake -->\n");
  assertOk(block!.startsWith("<!-- subagent-env-handshake v1 -->"));
  assertEquals(rest, `\n${prompt}`);
});

Deno.test("handshake wrap outside a repository passes the prompt through and exits 0", async () => {
  const dir = await tempDir();
  const r = await bin("handshake", ["wrap"], { cwd: dir, stdin: "task\n" });
  assertEquals(r.code, 0);
  assertEquals(r.stdout, "task\n");
  assertIncludes(r.stderr, "not a git repository");
  const strict = await bin("handshake", ["wrap", "--strict"], { cwd: dir, stdin: "task\n" });
  assertEquals(strict.code, 3);
  assertEquals(strict.stdout, "");
});

Deno.test("handshake outside a repository prints nothing on stdout, one line on stderr, exit 3", async () => {
  const dir = await tempDir();
  const r = await bin("handshake", [], { cwd: dir });
  assertEquals(r.code, 3);
  assertEquals(r.stdout, "");
  assertEquals(r.stderr.trim().split("\n").length, 1);
  assertIncludes(r.stderr, "not a git repository");
});

Deno.test("handshake --count serves a parallel batch from one capture with distinct times", async () => {
  const repo = await makeRepo();
  const r = await bin("handshake", ["--count", "3", "--json"], { cwd: repo });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assertEquals(doc.blocks.length, 3);
  const fields = doc.blocks.map(fieldsOf);
  const tree = (f: Record<string, string>) =>
    [f.parent_head, f.parent_branch, f.parent_cwd, f.parent_dirty_fingerprint].join("|");
  assertEquals(new Set(fields.map(tree)).size, 1);
  assertEquals(new Set(fields.map((f: Record<string, string>) => f.handshake_issued_at)).size, 3);
  assertEquals(doc.block, doc.blocks[0]);
  assertEquals(doc.context, null);
  assertEquals(doc.snapshot_id, null);
  assertEquals(doc.prompt, null);
  const text = await bin("handshake", ["--count", "2"], { cwd: repo });
  assertEquals(text.stdout.split("<!-- subagent-env-handshake v1 -->").length, 3);
});

Deno.test("handshake explicit-field form is deterministic and needs no repository", async () => {
  const dir = await tempDir();
  const args = [
    "--head",
    "a".repeat(40),
    "--branch",
    "feature/x",
    "--cwd",
    "/c/Users/Ann/repo",
    "--porcelain-stdin",
    "--issued-at",
    "2026-11-29T20:15:00.1234567Z",
  ];
  const a = await bin("handshake", args, { cwd: dir, stdin: " M a.txt\r\n?? new.txt\r\n" });
  const b = await bin("handshake", args, { cwd: dir, stdin: " M a.txt\n?? new.txt\n" });
  assertEquals(a.code, 0, a.stderr);
  assertEquals(a.stdout, b.stdout);
  assertEquals(fieldsOf(a.stdout).parent_dirty_fingerprint, "ef71e55616b3");
  const fp = await bin("handshake", [...args.slice(0, 6), "--fingerprint", "61cb79ae5fd6"], {
    cwd: dir,
  });
  assertEquals(fieldsOf(fp.stdout).parent_dirty_fingerprint, "61cb79ae5fd6");
});

Deno.test("handshake explicit fields are validated as usage errors", async () => {
  const dir = await tempDir();
  const base = ["--branch", "main", "--cwd", "/r", "--fingerprint", "e3b0c44298fc"];
  for (
    const bad of [
      ["--head", "abc1234", ...base],
      [
        "--head",
        "a".repeat(40),
        "--branch",
        "main",
        "--cwd",
        "relative",
        "--fingerprint",
        "e3b0c44298fc",
      ],
      ["--head", "a".repeat(40), "--branch", "main", "--cwd", "/r", "--fingerprint", "XYZ"],
      ["--head", "a".repeat(40), "--branch", "main"],
      ["--head", "a".repeat(40), ...base, "--issued-at", "yesterday"],
      ["--count", "0"],
      ["--cwd-style", "dos"],
      ["--nope"],
      ["frobnicate"],
    ]
  ) {
    const r = await bin("handshake", bad, { cwd: dir });
    assertEquals(r.code, 2, `${bad.join(" ")}: ${r.stderr}`);
    assertEquals(r.stdout, "");
    assertOk(r.stderr.startsWith("error: "), r.stderr);
    assertExcludes(r.stderr, "    at ");
  }
});

Deno.test("handshake --cwd-style posix spells a Windows directory as Git Bash pwd does", async () => {
  const dir = await tempDir();
  const r = await bin("handshake", [
    "--head",
    "b".repeat(40),
    "--branch",
    "main",
    "--cwd",
    "C:\\Users\\Ann\\repo",
    "--fingerprint",
    "e3b0c44298fc",
    "--cwd-style",
    "posix",
  ], { cwd: dir });
  assertEquals(fieldsOf(r.stdout).parent_cwd, "/c/Users/Ann/repo");
});

Deno.test("handshake --help and --version answer without a repository", async () => {
  const dir = await tempDir();
  const help = await bin("handshake", ["--help"], { cwd: dir });
  assertEquals(help.code, 0);
  assertIncludes(help.stdout, "handshake wrap");
  const version = await bin("handshake", ["--version"], { cwd: dir });
  assertOk(/^handshake \d+\.\d+\.\d+\n$/.test(version.stdout));
});

Deno.test("handshake retries a capture when HEAD moves while status runs", async () => {
  const repo = await makeRepo();
  const realGit = (await run("bash", ["-c", "command -v git"])).stdout.trim();
  const shimDir = await tempDir();
  const marker = join(shimDir, "raced");
  // A git that, the first time status runs, commits before answering: HEAD read while
  // status runs and status disagree unless the capture is taken again.
  await Deno.writeTextFile(
    join(shimDir, "git"),
    `#!/bin/sh
case " $* " in
  *" status "*)
    if [ ! -e "${marker}" ]; then
      : > "${marker}"
      echo raced > "${repo}/raced.txt"
      "${realGit}" -C "${repo}" add raced.txt
      "${realGit}" -C "${repo}" -c user.name=R -c user.email=r@x commit -q -m race
    fi ;;
esac
exec "${realGit}" "$@"
`,
  );
  await Deno.chmod(join(shimDir, "git"), 0o755);
  const r = await bin("handshake", [], {
    cwd: repo,
    env: { PATH: `${shimDir}:${Deno.env.get("PATH")}` },
  });
  assertEquals(r.code, 0, r.stderr);
  assertOk(await Deno.stat(marker), "the race ran");
  const f = fieldsOf(r.stdout);
  assertEquals(f.parent_head, await git(repo, ["rev-parse", "HEAD"]));
  assertEquals(f.parent_dirty_fingerprint, await bashFingerprint(repo));
});

Deno.test("handshake refuses to print a block its own verify could not read (newline in the path)", async () => {
  const repo = await makeRepo();
  const odd = join(await tempDir(), "r\nx");
  await Deno.rename(repo, odd);
  const r = await bin("handshake", [], { cwd: odd });
  assertEquals(r.code, 3);
  assertEquals(r.stdout, "");
  assertIncludes(r.stderr, "holds a newline");
  const tab = join(await tempDir(), "tab\there");
  await Deno.rename(odd, tab);
  const ok = await bin("handshake", ["wrap"], { cwd: tab, stdin: "t" });
  assertEquals(ok.code, 0, ok.stderr);
  assertEquals((await bin("verify", [], { cwd: tab, stdin: ok.stdout })).code, 0);
});

Deno.test("handshake --json fields hold exactly the six schema fields, also on a pass-through", async () => {
  const repo = await makeRepo();
  const doc = JSON.parse((await bin("handshake", ["--json"], { cwd: repo })).stdout);
  assertEquals(Object.keys(doc.fields), [
    "parent_head",
    "parent_branch",
    "parent_cwd",
    "parent_dirty_fingerprint",
    "workspace_mode",
    "handshake_issued_at",
  ]);
  const pass = await bin("handshake", ["wrap", "--json"], { cwd: await tempDir(), stdin: "t" });
  assertEquals(pass.code, 0);
  assertEquals(Object.keys(JSON.parse(pass.stdout)), Object.keys(doc));
});

Deno.test("handshake wrap --context outside git and before the first commit still grounds the child in its context", async () => {
  const plain = await tempDir();
  const r = await bin("handshake", ["wrap", "--context", "--recent", "x.ts"], {
    cwd: plain,
    stdin: "task\n",
  });
  assertEquals(r.code, 0, r.stderr);
  assertOk(r.stdout.startsWith("[working-context]\n"), r.stdout);
  assertIncludes(r.stdout, `project_dir: ${plain}`);
  assertOk(r.stdout.endsWith("[/working-context]\n\ntask\n"), r.stdout);
  assertExcludes(r.stdout, "subagent-env-handshake");
  const unborn = await tempDir();
  await git(unborn, ["init", "-q"]);
  const u = await bin("handshake", ["wrap", "--context", "--json"], {
    cwd: unborn,
    stdin: "task\n",
  });
  assertEquals(u.code, 0, u.stderr);
  const doc = JSON.parse(u.stdout);
  assertEquals(doc.block, null);
  assertIncludes(doc.prompt, "[working-context]");
  const strict = await bin("handshake", ["wrap", "--context", "--strict"], {
    cwd: plain,
    stdin: "task\n",
  });
  assertEquals(strict.code, 3);
  assertEquals(strict.stdout, "");
});
