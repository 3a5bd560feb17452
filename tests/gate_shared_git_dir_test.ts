/**
 * A child with git, the same object store and the same git directory can neither make an
 * untouched file read as changed nor stop gate from judging: line-end and mode settings,
 * attributes and excludes in the git directory, grafts and a shallow file, refs in the
 * anchor namespace, special files, deep nesting and a private index it cannot predict are
 * each met. Every test runs the real binaries under `--allow-run=git` only in a throwaway
 * repository.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, commitAll, git, makeRepo, run, writeFiles } from "./_helpers.ts";
import { gate, result, spawn } from "./_gate_fixture.ts";

/** A result claiming `files`, with a commit the child makes now as its evidence. */
async function claim(repo: string, files: string[]): Promise<string> {
  await git(repo, ["commit", "-q", "--allow-empty", "-m", "child: did the work"]);
  const head = await git(repo, ["rev-parse", "HEAD"]);
  return result(files, [{ kind: "commit", ref: head, ok: true }]);
}

async function unobserved(repo: string, snap: string, files: string[]) {
  const { code, report, stderr } = await gate(repo, await claim(repo, files), ["--since", snap]);
  assertEquals(code, 1, stderr);
  assertEquals(report.changes.confirmed, []);
  assertEquals(report.changes.claimed_unobserved, [...files].sort());
}

Deno.test("a CRLF file under text=auto moved between index and HEAD is no change", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n", "win.txt": "line1\r\nline2\r\n" } });
  await writeFiles(repo, { ".gitattributes": "* text=auto\n" });
  await commitAll(repo, "attributes");
  const snap = await spawn(repo);
  await git(repo, ["rm", "-q", "--cached", "win.txt"]);
  await unobserved(repo, snap, ["win.txt"]);
  // The parent's uncommitted CRLF edit, committed by the child: no byte changed.
  await git(repo, ["reset", "-q", "--hard", "HEAD~1"]);
  await writeFiles(repo, { "win.txt": "line1\r\nline2 parent edit\r\n" });
  const snap2 = await spawn(repo);
  await git(repo, ["commit", "-q", "-am", "child: commit the parent's edit"]);
  await unobserved(repo, snap2, ["win.txt"]);
});

Deno.test({
  name: "with core.fileMode=false or core.symlinks=false an untracked path keeps its content",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n", "run.sh": "#!/bin/sh\necho hi\n" } });
  await Deno.chmod(join(repo, "run.sh"), 0o755);
  await Deno.symlink("app.ts", join(repo, "link"));
  await commitAll(repo, "script and link");
  await git(repo, ["config", "core.fileMode", "false"]);
  await git(repo, ["config", "core.symlinks", "false"]);
  await Deno.chmod(join(repo, "run.sh"), 0o644);
  await Deno.remove(join(repo, "link"));
  await writeFiles(repo, { link: "app.ts" }); // what a checkout without symlinks holds
  assertEquals(await git(repo, ["status", "--porcelain"]), "");
  const snap = await spawn(repo);
  await git(repo, ["rm", "-q", "--cached", "run.sh", "link"]);
  await unobserved(repo, snap, ["link", "run.sh"]);
});

Deno.test({
  name: "the private index is fresh and unpredictable: no fixed path to lock or to link",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  await Deno.mkdir(join(repo, "docs"));
  await writeFiles(repo, { "docs/x": "d\n", victim: "keep me\n" });
  await Deno.symlink("docs", join(repo, "docs-link"));
  // The old fixed names: a stale lock, and a link that would be written through.
  await writeFiles(repo, { ".git/tether-context-index.lock": "" });
  await Deno.symlink(join(repo, "victim"), join(repo, ".git/tether-context-index"));
  await Deno.symlink(join(repo, "victim"), join(repo, ".git/objects/tether-context-index"));
  const snap = await spawn(repo);
  await unobserved(repo, snap, ["docs-link"]);
  assertEquals(await Deno.readTextFile(join(repo, "victim")), "keep me\n");
  // Each run its own index under objects/tmp_*, which git's own prune removes.
  const leftovers = [...Deno.readDirSync(join(repo, ".git/objects"))]
    .map((e) => e.name).filter((n) => n.startsWith("tmp_tether_index_"));
  assertEquals(leftovers.length >= 2, true, JSON.stringify(leftovers));
  assertEquals(new Set(leftovers).size, leftovers.length);
  await git(repo, ["prune", "--expire=now"]);
  const after = [...Deno.readDirSync(join(repo, ".git/objects"))]
    .map((e) => e.name).filter((n) => n.startsWith("tmp_tether_index_"));
  assertEquals(after, []);
});

Deno.test("a nested repository is observed and claimed without a trailing slash", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  const lib = join(repo, "vendor/lib");
  await Deno.mkdir(lib, { recursive: true });
  await git(lib, ["init", "-q"]);
  await git(lib, ["commit", "-q", "--allow-empty", "-m", "v0"]);
  const snap = await spawn(repo);
  await git(lib, ["commit", "-q", "--allow-empty", "-m", "child: real work"]);
  for (const path of ["vendor/lib", "vendor/lib/", "./vendor/lib/"]) {
    const { code, report, stderr } = await gate(repo, await claim(repo, [path]), [
      "--since",
      snap,
    ]);
    assertEquals(code, 0, stderr + JSON.stringify(report));
    assertEquals(report.changes.confirmed, ["vendor/lib"]);
  }
});

Deno.test("grafts and a shallow file do not cut the walk; a future-dated commit is unverified", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  // Dated a moment ahead, so that only ancestry can tell it predates the spawn.
  const soon = Math.floor(Date.now() / 1000) + 12;
  const env = { GIT_COMMITTER_DATE: `@${soon} +0000` };
  const commit = async (message: string) => {
    const r = await run("git", ["commit", "-q", "--allow-empty", "-m", message], {
      cwd: repo,
      env,
    });
    assertEquals(r.code, 0, r.stderr);
    return await git(repo, ["rev-parse", "HEAD"]);
  };
  const a = await commit("parent: feature");
  const head = await commit("parent: docs");
  const snap = await spawn(repo);
  const captured = Date.parse(JSON.parse(await git(repo, ["cat-file", "blob", snap])).captured_at);
  assertEquals(captured <= soon * 1000, true, "precondition: the spawn precedes the commits' date");
  while (Date.now() <= (soon + 1) * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 500)); // let the clock pass the date
  }
  const res = result([], [{ kind: "commit", ref: a, ok: true }]);
  for (const [file, text] of [[".git/shallow", head], [".git/info/grafts", head]] as const) {
    await writeFiles(repo, { [file]: `${text}\n` });
    const { code, report, stderr } = await gate(repo, res, ["--since", snap]);
    assertEquals(code, 1, stderr);
    assertEquals(report.evidence[0].status, "preexisting", file);
    await Deno.remove(join(repo, file));
  }
  // A commit dated after the gate's clock: its age cannot be told.
  const later = await run("git", ["commit", "-q", "--allow-empty", "-m", "future"], {
    cwd: repo,
    env: { GIT_COMMITTER_DATE: `@${Math.floor(Date.now() / 1000) + 3600} +0000` },
  });
  assertEquals(later.code, 0, later.stderr);
  const future = await git(repo, ["rev-parse", "HEAD"]);
  const { code, report } = await gate(
    repo,
    result([], [{ kind: "commit", ref: future, ok: true }]),
    [
      "--since",
      snap,
    ],
  );
  assertEquals(code, 1);
  assertEquals(report.evidence[0].status, "unverified");
});

Deno.test("deep nesting is one schema violation, quickly, not a crash", async () => {
  const depth = 20_000;
  const text = JSON.stringify({
    ok: true,
    summary: "s",
    files_changed: [],
    errors: [],
    evidence: [{ kind: "x", ref: "r", ok: true }],
  }).replace(/}$/, `,"working_context":{"files_read":${"[".repeat(depth)}${"]".repeat(depth)}}}`);
  const r = await bin("gate", ["--json"], { stdin: text, cwd: Deno.cwd() });
  assertEquals(r.code, 1, r.stderr);
  assertIncludes(JSON.parse(r.stdout).reasons.join("\n"), "nest deeper than 64 levels");
});

Deno.test("a ref in the anchor namespace is one error line, never an uncaught rejection", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  await git(repo, ["update-ref", "refs/tether/snapshots", "HEAD"]);
  for (let i = 0; i < 4; i++) {
    const json = await bin("handshake", ["--json", "--context"], { cwd: repo });
    assertEquals(json.code, 3, json.stderr);
    assertEquals(json.stdout, "");
    assertEquals(json.stderr.trim().split("\n").length, 1, json.stderr);
    assertIncludes(json.stderr, "cannot anchor the snapshot");
    // wrap without --strict passes the prompt through, by its documented rule, and says so.
    const wrap = await bin("handshake", ["wrap", "--context"], { cwd: repo, stdin: "task\n" });
    assertEquals(wrap.code, 0, wrap.stderr);
    assertEquals(wrap.stdout, "task\n");
    assertIncludes(wrap.stderr, "prompt passed through");
    const strict = await bin("handshake", ["wrap", "--context", "--strict"], {
      cwd: repo,
      stdin: "task\n",
    });
    assertEquals(strict.code, 3, strict.stderr);
    assertEquals(strict.stdout, "");
  }
});

Deno.test("attributes the child adds in the git directory change no content", async () => {
  const repo = await makeRepo({
    files: { "app.ts": "a\n", "odd.txt": "odd!\n", "dirty.txt": "x\n" },
  });
  await writeFiles(repo, { "dirty.txt": "parent's edit\n" });
  const snap = await spawn(repo);
  await writeFiles(repo, { ".git/info/attributes": "* working-tree-encoding=IBM037\n" });
  const now = new Date(Date.now() + 5000);
  for (const f of ["app.ts", "odd.txt", "dirty.txt"]) await Deno.utime(join(repo, f), now, now);
  const { code, report, stderr } = await gate(
    repo,
    result(["app.ts", "dirty.txt", "odd.txt"], [
      { kind: "file", ref: "app.ts", ok: true },
      { kind: "file", ref: "dirty.txt", ok: true },
    ]),
    ["--since", snap],
  );
  assertEquals(code, 1, stderr);
  assertEquals(report.changes.confirmed, []);
  assertEquals(report.evidence.map((e: { status: string }) => e.status), [
    "preexisting",
    "preexisting",
  ]);
});

Deno.test("a failed --done release keeps the verdict and warns on stderr", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  const snap = await spawn(repo);
  await writeFiles(repo, { "app.ts": "real work\n", ".git/packed-refs.lock": "" });
  const r = await bin("gate", ["--json", "--since", snap, "--done"], {
    cwd: repo,
    stdin: result(["app.ts"], [{ kind: "file", ref: "app.ts", ok: true }]),
  });
  assertEquals(r.code, 0, r.stderr);
  assertEquals(JSON.parse(r.stdout).verdict, "accept");
  assertIncludes(r.stderr, "warning: Cannot release");
});

Deno.test("an ignored file made after spawn is never called preexisting", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n", ".gitignore": "build/\n" } });
  await writeFiles(repo, { "build/out.txt": "old\n" });
  const snap = await spawn(repo);
  await writeFiles(repo, { "build/out.txt": "new\n", "build/new.txt": "fresh\n" });
  const { report } = await gate(
    repo,
    result(["build/new.txt"], [{ kind: "file", ref: "build/new.txt", ok: true }]),
    ["--since", snap],
  );
  assertEquals(report.evidence[0].status, "unverified");
  assertEquals(report.changes.claimed_unobserved, ["build/new.txt"]);
});

Deno.test("hiding a path from status (info/exclude, skip-worktree) changes no content", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  await writeFiles(repo, { "notes.md": "parent's notes\n", "app.ts": "a\nparent's edit\n" });
  const snap = await spawn(repo);
  await writeFiles(repo, { ".git/info/exclude": "notes.md\n" });
  await git(repo, ["update-index", "--skip-worktree", "app.ts"]);
  await unobserved(repo, snap, ["app.ts", "notes.md"]);
});

Deno.test("the spawn HEAD is anchored with the snapshot: amend plus gc still judges", async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  await writeFiles(repo, { "app.ts": "a\nwip\n" });
  await commitAll(repo, "parent: wip");
  const snap = await spawn(repo);
  await writeFiles(repo, { "app.ts": "a\nwip\nchild work\n" });
  await git(repo, ["commit", "-q", "--amend", "-am", "wip + child work"]);
  await git(repo, ["-c", "gc.reflogExpireUnreachable=now", "gc", "-q", "--prune=now"]);
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const { code, report, stderr } = await gate(
    repo,
    result(["app.ts"], [{ kind: "commit", ref: head, ok: true }]),
    ["--since", snap, "--done"],
  );
  assertEquals(code, 0, stderr);
  assertEquals(report.changes.confirmed, ["app.ts"]);
  assertEquals(await git(repo, ["for-each-ref", "refs/tether/"]), "");
});

Deno.test("a file inside a submodule is unverified, not refuted", async () => {
  const lib = await makeRepo({ files: { "s.txt": "s\n" } });
  const app = await makeRepo({ files: { "app.ts": "a\n" } });
  await git(app, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib"]);
  await commitAll(app, "add lib");
  const head = await claim(app, ["lib"]);
  const r = await bin("gate", ["--json"], {
    cwd: app,
    stdin: head.replace(
      /"evidence":\[/,
      '"evidence":[{"kind":"file","ref":"lib/s.txt","ok":true},',
    ),
  });
  const report = JSON.parse(r.stdout);
  assertEquals(report.evidence[0].status, "unverified", r.stdout);
  assertEquals(report.verdict, "accept", r.stdout);
});

Deno.test({
  name: "a special file git did not add is never opened, and is a change of content",
  ignore: Deno.build.os === "windows",
}, async () => {
  const repo = await makeRepo({ files: { "app.ts": "a\n" } });
  const snap = await spawn(repo);
  await Deno.remove(join(repo, "app.ts"));
  const made = await run("mkfifo", [join(repo, "app.ts")]); // the child's real act
  assertEquals(made.code, 0, made.stderr);
  const { code, report, stderr } = await gate(repo, await claim(repo, ["app.ts"]), [
    "--since",
    snap,
  ]);
  assertEquals(code, 0, stderr + JSON.stringify(report));
  assertEquals(report.changes.confirmed, ["app.ts"]);
});
