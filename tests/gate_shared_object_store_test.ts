/**
 * A lazy or lying child with git and the parent's object store gets no `accept`: replace
 * refs and planted or rewritten objects decide nothing (everything read must hash to its
 * id), moving HEAD, the branch or the index changes no file, evidence already true at spawn
 * is `preexisting`, the snapshot outlives `git gc` until `--done` releases it, a JSON key
 * given twice is a schema violation, and a submodule's further commit is observed. Every
 * test runs the real binaries under `--allow-run=git` only in a throwaway repository.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { anchorObject, listAnchors } from "../src/anchor.ts";
import { bashFingerprint, bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";
import { gate, result, spawn } from "./_gate_fixture.ts";

const CLAIM = result(["app.ts"], [{ kind: "file", ref: "app.ts", ok: true }]);

/** Overwrite a loose object in place with other content of the same type (what git does not check). */
async function rewriteLoose(repo: string, oid: string, type: string, content: string) {
  const path = join(repo, ".git/objects", oid.slice(0, 2), oid.slice(2));
  const raw = new TextEncoder().encode(
    `${type} ${new TextEncoder().encode(content).length}\0${content}`,
  );
  const zipped = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate")))
      .arrayBuffer(),
  );
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.chmod(path, 0o644).catch(() => {});
  await Deno.writeFile(path, zipped);
}

async function catBlob(repo: string, oid: string): Promise<string> {
  return await git(repo, ["cat-file", "blob", oid]);
}

const FORGE = (text: string) =>
  text.replace('"entries":[]', '"entries":[{"xy":" M","path":"app.ts","oid":null,"state":""}]');

Deno.test("a replace ref on the snapshot is ignored; the child's false claim is rejected", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n" } });
  const snap = await spawn(repo);
  const forged = await git(
    repo,
    ["hash-object", "-w", "--stdin"],
    FORGE(await catBlob(repo, snap)),
  );
  await git(repo, ["replace", snap, forged]);
  const { code, report, stderr } = await gate(repo, CLAIM, ["--since", snap]);
  assertEquals(code, 1, stderr);
  assertEquals(report.changes.claimed_unobserved, ["app.ts"]);
});

for (const format of ["sha1", "sha256"] as const) {
  Deno.test(`a snapshot rewritten in place does not hash to its id: exit 3 (${format})`, async () => {
    const repo = await makeRepo({ files: { "app.ts": "hello\n" }, objectFormat: format });
    const snap = await spawn(repo);
    await rewriteLoose(repo, snap, "blob", FORGE(await catBlob(repo, snap)) + "\n");
    const r = await bin("gate", ["--since", snap], { cwd: repo, stdin: CLAIM });
    assertEquals(r.code, 3, r.stdout);
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr, "does not hash to its id");
  });
}

Deno.test("commit evidence through a replace ref or a planted object is refuted", async () => {
  const repo = await makeRepo();
  const fake = "deadbeef".repeat(5);
  await git(repo, ["update-ref", `refs/replace/${fake}`, "HEAD"]);
  const replaced = await gate(repo, result([], [{ kind: "commit", ref: fake, ok: true }]));
  assertEquals(replaced.code, 1);
  assertEquals(replaced.report.evidence[0].status, "refuted");
  // A planted loose object: a commit header under an id it does not hash to.
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const body = await git(repo, ["cat-file", "commit", head]);
  const planted = "cafebabe".repeat(5);
  await rewriteLoose(repo, planted, "commit", body + "\n");
  const r = await gate(repo, result([], [{ kind: "commit", ref: planted, ok: true }]), []);
  assertEquals(r.code, 1);
  assertEquals(r.report.evidence[0].status, "refuted");
  assertIncludes(r.report.reasons.join("\n"), "does not hash to its id");
  const wc = await gate(
    repo,
    result([], [{ kind: "file", ref: "README.md", ok: true }], {
      working_context: { files_read: [], head: planted },
    }),
  );
  assertEquals(wc.code, 1);
  assertIncludes(wc.report.reasons.join("\n"), "is not a commit in this repository");
});

Deno.test("moving HEAD, the branch or the index changes no file", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n", "lib.ts": "v1\n" } });
  await writeFiles(repo, { "lib.ts": "v2\n" });
  await git(repo, ["commit", "-q", "-am", "second"]);
  await writeFiles(repo, { "notes.md": "parent's uncommitted edit\n", "app.ts": "parent edit\n" });
  const claim = result(["app.ts", "lib.ts"], [{ kind: "file", ref: "app.ts", ok: true }]);
  for (
    const move of [
      ["add", "app.ts"],
      ["reset", "--soft", "HEAD~1"],
      ["symbolic-ref", "HEAD", "refs/heads/void"],
    ]
  ) {
    const snap = await spawn(repo);
    await git(repo, move);
    const { code, report } = await gate(repo, claim, ["--since", snap]);
    assertEquals(code, 1, `${move.join(" ")}: ${JSON.stringify(report)}`);
    assertEquals(report.changes.confirmed, [], move.join(" "));
    assertEquals(report.changes.claimed_unobserved, ["app.ts", "lib.ts"], move.join(" "));
  }
});

Deno.test("a real edit, a commit of it, a deletion and a new file are changes", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a\n", "b.ts": "b\n", "gone.ts": "g\n" } });
  const snap = await spawn(repo);
  await writeFiles(repo, { "a.ts": "child\n", "new.ts": "n\n" });
  await git(repo, ["commit", "-q", "-am", "child"]);
  await writeFiles(repo, { "b.ts": "child, uncommitted\n" });
  await Deno.remove(join(repo, "gone.ts"));
  const files = ["a.ts", "b.ts", "gone.ts", "new.ts"];
  const { code, report } = await gate(
    repo,
    result(files, [{ kind: "file", ref: "a.ts", ok: true }]),
    [
      "--since",
      snap,
    ],
  );
  assertEquals(code, 0, JSON.stringify(report));
  assertEquals(report.changes.confirmed, files);
});

Deno.test("evidence that predates the spawn is preexisting and proves no work", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n", "other.ts": "o\n" } });
  // A commit on another branch, made before the spawn.
  await git(repo, ["checkout", "-q", "-b", "side"]);
  await writeFiles(repo, { "side.ts": "s\n" });
  await git(repo, ["add", "side.ts"]);
  const env = {
    GIT_COMMITTER_DATE: "2001-01-01T00:00:00Z",
    GIT_AUTHOR_DATE: "2001-01-01T00:00:00Z",
  };
  const made = await run("git", ["commit", "-q", "-m", "old side work"], { cwd: repo, env });
  assertEquals(made.code, 0, made.stderr);
  const side = await git(repo, ["rev-parse", "HEAD"]);
  await git(repo, ["checkout", "-q", "main"]);
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const snap = await spawn(repo);

  const lazy = await gate(repo, result([], [{ kind: "commit", ref: head, ok: true }]), [
    "--since",
    snap,
  ]);
  assertEquals(lazy.code, 1);
  assertEquals(lazy.report.evidence[0].status, "preexisting");
  assertIncludes(lazy.report.reasons.join("\n"), "preexisting evidence does not count");
  const borrowed = await gate(repo, result([], [{ kind: "commit", ref: side, ok: true }]), [
    "--since",
    snap,
  ]);
  assertEquals(borrowed.code, 1);
  assertEquals(borrowed.report.evidence[0].status, "preexisting");

  // The child edits app.ts but cites only a file it never touched.
  await writeFiles(repo, { "app.ts": "child\n" });
  const untouched = await gate(
    repo,
    result(["app.ts"], [{ kind: "file", ref: "other.ts", ok: true }]),
    ["--since", snap],
  );
  assertEquals(untouched.code, 1);
  assertEquals(untouched.report.evidence[0].status, "preexisting");
  const cited = await gate(repo, CLAIM, ["--since", snap]);
  assertEquals(cited.code, 0, JSON.stringify(cited.report));
  assertEquals(cited.report.evidence[0].status, "verified");
  // A read-only report may cite a file that exists.
  const readOnly = await gate(
    repo,
    result([], [{ kind: "file", ref: "other.ts", ok: true }]),
    ["--since", snap],
  );
  assertEquals(readOnly.code, 0, JSON.stringify(readOnly.report));
  // A new commit is verified.
  await git(repo, ["commit", "-q", "-am", "child"]);
  const fresh = await git(repo, ["rev-parse", "HEAD"]);
  const done = await gate(repo, result(["app.ts"], [{ kind: "commit", ref: fresh, ok: true }]), [
    "--since",
    snap,
  ]);
  assertEquals(done.code, 0, JSON.stringify(done.report));
  assertEquals(done.report.evidence[0].status, "verified");
  const human = await bin("gate", ["--since", snap], {
    cwd: repo,
    stdin: result([], [{ kind: "commit", ref: head, ok: true }]),
  });
  assertIncludes(human.stdout, `evidence: preexisting commit ${head}\n`);
});

Deno.test("a snapshot survives git gc --prune=now until gate --done releases it", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n" } });
  const snap = await spawn(repo);
  await writeFiles(repo, { "app.ts": "edited\n" });
  await git(repo, ["gc", "-q", "--prune=now"]);
  const judged = await gate(repo, CLAIM, ["--since", snap, "--done"]);
  assertEquals(judged.code, 0, judged.stderr);
  assertEquals(await listAnchors(repo, "snapshots"), []);
  await git(repo, ["gc", "-q", "--prune=now"]);
  const gone = await bin("gate", ["--since", snap], { cwd: repo, stdin: CLAIM });
  assertEquals(gone.code, 3);
  const usage = await bin("gate", ["--done"], { cwd: repo, stdin: CLAIM });
  assertEquals(usage.code, 2);
});

Deno.test("anchors older than 14 days go when a new snapshot is anchored", async () => {
  const repo = await makeRepo();
  const snap = await spawn(repo);
  const [first] = await listAnchors(repo, "snapshots");
  assertEquals(first?.oid, snap);
  const blob = await git(repo, ["hash-object", "-w", "--stdin"], "later\n");
  await anchorObject(repo, "snapshots", blob, Date.now() + 13 * 86_400_000);
  assertEquals((await listAnchors(repo, "snapshots")).length, 2);
  await anchorObject(repo, "snapshots", blob, Date.now() + 15 * 86_400_000);
  assertEquals((await listAnchors(repo, "snapshots")).map((a) => a.oid), [blob, blob]);
});

Deno.test("duplicate JSON keys are a schema violation naming the key", async () => {
  const repo = await makeRepo();
  const text = '{"ok":false,"ok":true,"summary":"s","files_changed":[],"errors":[],' +
    '"evidence":[{"kind":"file","ref":"README.md","ok":false,"\\u006fk":true}]}';
  const { code, report } = await gate(repo, text);
  assertEquals(code, 1);
  assertEquals(report.reasons, [
    'Schema violation at (root): duplicate key "ok"',
    'Schema violation at evidence[0]: duplicate key "ok"',
  ]);
});

Deno.test("a further commit in a submodule that had already moved at spawn is observed", async () => {
  const dir = await tempDir();
  const lib = join(dir, "lib");
  const app = join(dir, "app");
  await Deno.mkdir(lib);
  await git(lib, ["init", "-q"]);
  await git(lib, ["commit", "-q", "--allow-empty", "-m", "l0"]);
  await Deno.mkdir(app);
  await git(app, ["init", "-q", "-b", "main"]);
  await git(app, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib"]);
  await git(app, ["commit", "-q", "-m", "sub"]);
  await git(join(app, "lib"), ["commit", "-q", "--allow-empty", "-m", "parent wip"]);
  const snap = await spawn(app);
  await git(join(app, "lib"), ["commit", "-q", "--allow-empty", "-m", "child work"]);
  const { report } = await gate(
    app,
    result(["lib"], [{ kind: "file", ref: ".gitmodules", ok: true }]),
    [
      "--since",
      snap,
    ],
  );
  assertEquals(report.changes.confirmed, ["lib"]);
});

Deno.test("the working context ignores replace refs; the v1 fingerprint keeps bash parity", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n" } });
  // A replace ref swapping HEAD for a commit with an empty tree.
  const empty = await git(repo, ["hash-object", "-t", "tree", "-w", "--stdin"], "");
  const other = await git(repo, ["commit-tree", "-m", "empty", empty]);
  await git(repo, ["replace", await git(repo, ["rev-parse", "HEAD"]), other]);
  const r = await bin("handshake", ["--json", "--context"], { cwd: repo });
  assertEquals(r.code, 0, r.stderr);
  const context = JSON.parse(r.stdout).context;
  assertEquals([context.git.staged, context.git.modified, context.git.untracked], [0, 0, 0]);
  const block = await bin("handshake", [], { cwd: repo });
  const fingerprint = /parent_dirty_fingerprint: (\S+)/.exec(block.stdout)?.[1];
  assertEquals(fingerprint, await bashFingerprint(repo));
  assertEquals(
    fingerprint === "e3b0c44298fc",
    false,
    "control: bash's status honours the replace ref",
  );
});
