/**
 * `gate` as a black box under `--allow-run=git` only: verdicts, evidence checks,
 * observed changes against a spawn snapshot, bad input and exit codes.
 */
import { assertEquals, assertExcludes, assertIncludes } from "../src/_assert.ts";
import { captureWorkingContext } from "../src/context/capture.ts";
import { bin, commitAll, git, makeRepo, tempDir, writeFiles } from "./_helpers.ts";

interface Evidence {
  kind: string;
  ref: string;
  ok: boolean;
  oid?: string;
}

function result(
  files: string[],
  evidence: Evidence[],
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

async function gateJson(cwd: string, stdin: string, args: string[] = []) {
  const r = await bin("gate", ["--json", ...args], { cwd, stdin });
  return { code: r.code, stderr: r.stderr, report: r.stdout ? JSON.parse(r.stdout) : undefined };
}

async function snapshot(repo: string, recent: string[] = []): Promise<string> {
  return (await captureWorkingContext({ recent, audience: "private", cwd: repo })).snapshotId!;
}

Deno.test("gate --help and --version exit 0; a bad option, argument or --since exits 2 with a hint", async () => {
  const repo = await makeRepo();
  const help = await bin("gate", ["--help"], { cwd: repo });
  assertEquals(help.code, 0);
  assertIncludes(help.stdout, "Exit codes:");
  const version = await bin("gate", ["--version"], { cwd: repo });
  assertEquals([version.code, /^gate \d+\.\d+\.\d+\n$/.test(version.stdout)], [0, true]);
  for (
    const args of [["--frobnicate"], ["extra"], ["--since", "abc1234"], ["--since", "--output=x"]]
  ) {
    const r = await bin("gate", args, { cwd: repo, stdin: "{}" });
    assertEquals(r.code, 2, args.join(" "));
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr, "error: ");
    assertIncludes(r.stderr, "--help");
  }
});

Deno.test("gate rejects input that is not JSON, empty, not UTF-8 or over 8 MiB with one error line", async () => {
  const repo = await makeRepo();
  const inputs: (string | Uint8Array)[] = [
    "{not json",
    "",
    new Uint8Array([0x7b, 0xff, 0x7d]),
    "x".repeat(8 * 1024 * 1024 + 1),
  ];
  for (const stdin of inputs) {
    const r = await bin("gate", [], { cwd: repo, stdin });
    assertEquals(r.code, 1);
    assertEquals(r.stderr.split("\n").filter(Boolean).length, 1, r.stderr);
    assertIncludes(r.stderr, "error: Result is ");
    assertExcludes(r.stderr, "    at ");
    assertIncludes(r.stdout, "verdict: reject\n");
  }
});

Deno.test("gate names the field path of every schema violation", async () => {
  const repo = await makeRepo();
  const bad = JSON.stringify({
    ok: true,
    summary: "s",
    files_changed: "a.ts",
    errors: [],
    evidence: [{ kind: "commit", ref: "x", ok: true, sneaky: 1 }],
    extra: true,
  });
  const { code, report } = await gateJson(repo, bad);
  assertEquals(code, 1);
  assertEquals(report.verdict, "reject");
  const text = report.reasons.join("\n");
  assertIncludes(text, "Schema violation at files_changed:");
  assertIncludes(text, "Schema violation at evidence[0]: Unrecognized key");
  assertIncludes(text, "Schema violation at (root): Unrecognized key");
});

Deno.test("gate rejects ok:true with no evidence: done, no errors, no evidence never passes", async () => {
  const repo = await makeRepo();
  const { code, report } = await gateJson(repo, result([], []));
  assertEquals([code, report.reasons], [1, ["Child reported ok with no evidence"]]);
});

Deno.test("gate verifies a real commit and refutes a missing one, a blob and an abbreviation", async () => {
  const repo = await makeRepo();
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const blob = await git(repo, ["rev-parse", "HEAD:README.md"]);
  const ok = await gateJson(repo, result([], [{ kind: "commit", ref: head, ok: true }]));
  assertEquals([ok.code, ok.report.verdict, ok.report.evidence], [0, "accept", [
    { kind: "commit", ref: head, status: "verified" },
  ]]);
  const missing = "0123456789abcdef0123456789abcdef01234567";
  const bad = await gateJson(
    repo,
    result([], [
      { kind: "commit", ref: head, ok: true },
      { kind: "commit", ref: missing, ok: true },
      { kind: "commit", ref: blob, ok: true },
      { kind: "commit", ref: head.slice(0, 7), ok: true },
    ]),
  );
  assertEquals(bad.code, 1);
  assertEquals(bad.report.evidence.map((e: { status: string }) => e.status), [
    "verified",
    "refuted",
    "refuted",
    "refuted",
  ]);
  assertIncludes(bad.report.reasons.join("\n"), `commit "${missing}" does not exist`);
  assertIncludes(bad.report.reasons.join("\n"), `"${blob}" is a blob, not a commit`);
});

Deno.test("gate checks file evidence in the worktree, with the blob id when given", async () => {
  const repo = await makeRepo({ files: { "src/a.ts": "a\n" } });
  await writeFiles(repo, { "src/b.ts": "uncommitted\n" });
  const aOid = await git(repo, ["hash-object", "src/a.ts"]);
  const bOid = await git(repo, ["hash-object", "src/b.ts"]);
  const { code, report } = await gateJson(
    repo,
    result([], [
      { kind: "file", ref: "src/a.ts", ok: true, oid: aOid },
      { kind: "file", ref: "src/b.ts", ok: true, oid: bOid },
      { kind: "file", ref: "src/a.ts", ok: true, oid: bOid },
      { kind: "file", ref: "src/none.ts", ok: true },
      { kind: "file", ref: "../outside", ok: true },
      { kind: "file", ref: "src", ok: true },
    ]),
  );
  assertEquals(code, 1);
  assertEquals(report.evidence.map((e: { status: string }) => e.status), [
    "verified",
    "verified",
    "refuted",
    "refuted",
    "refuted",
    "refuted",
  ]);
  const reasons = report.reasons.join("\n");
  assertIncludes(reasons, `file "src/a.ts" has blob ${aOid}, not ${bOid}`);
  assertIncludes(reasons, 'file "src/none.ts" does not exist in the worktree');
  assertIncludes(reasons, "climbs out");
});

Deno.test("gate reports unknown evidence kinds as unverified, never verified", async () => {
  const repo = await makeRepo();
  const test = [{ kind: "test", ref: "deno test", ok: true }];
  const strict = await gateJson(repo, result([], test));
  assertEquals([strict.code, strict.report.evidence[0].status], [1, "unverified"]);
  assertIncludes(strict.report.reasons[0], "No evidence item could be verified");
  const lenient = await gateJson(repo, result([], test), ["--accept-unverified"]);
  assertEquals([lenient.code, lenient.report.evidence[0].status], [0, "unverified"]);
});

Deno.test("gate rejects a child that reports failure, or ok with errors, or failing evidence", async () => {
  const repo = await makeRepo();
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const ev = [{ kind: "commit", ref: head, ok: true }];
  const failed = await gateJson(
    repo,
    JSON.stringify({ ok: false, summary: "", files_changed: [], errors: ["boom"], evidence: ev }),
  );
  assertEquals([failed.code, failed.report.reasons], [1, [
    'Child reported failure (ok is false): "boom"',
  ]]);
  const withErrors = await gateJson(repo, result([], ev, { errors: ["warn"] }));
  assertEquals(withErrors.report.reasons, ["Child reported ok with 1 errors"]);
  const failing = await gateJson(repo, result([], [{ kind: "commit", ref: head, ok: false }]));
  assertIncludes(failing.report.reasons.join("\n"), "reports failure");
});

Deno.test("gate cannot evaluate outside a repository, or with an unknown or foreign snapshot (exit 3)", async () => {
  const dir = await tempDir();
  const head = "a".repeat(40);
  const outside = await bin("gate", [], {
    cwd: dir,
    stdin: result([], [{ kind: "commit", ref: head, ok: true }]),
  });
  assertEquals([outside.code, outside.stdout], [3, ""]);
  assertIncludes(outside.stderr, "error: Cannot evaluate: not inside a git worktree");
  const repo = await makeRepo();
  const unknown = await bin("gate", ["--since", "b".repeat(40)], {
    cwd: repo,
    stdin: result([], []),
  });
  assertEquals(unknown.code, 3);
  assertIncludes(unknown.stderr, "is not a blob in this repository");
  const notSnapshot = await git(repo, ["hash-object", "-w", "--stdin"], '{"hello":1}');
  const foreign = await bin("gate", ["--since", notSnapshot], { cwd: repo, stdin: result([], []) });
  assertEquals(foreign.code, 3);
  assertIncludes(foreign.stderr, "is not a tether snapshot");
  const sha256In1 = await bin("gate", ["--since", "c".repeat(64)], {
    cwd: repo,
    stdin: result([], []),
  });
  assertEquals(sha256In1.code, 3);
});

Deno.test("gate --since confirms claimed commits and edits, and never attributes a sibling's file to the child", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a\n", "dirty.ts": "d\n", "b.ts": "b\n" } });
  await writeFiles(repo, { "dirty.ts": "parent edit\n", "scratch.txt": "parent's\n" });
  const since = await snapshot(repo, ["a.ts"]);
  // The child edits and commits a.ts, edits b.ts without committing.
  await writeFiles(repo, { "a.ts": "child\n" });
  await git(repo, ["add", "a.ts"]);
  await git(repo, ["commit", "-q", "-m", "child"]);
  const childHead = await git(repo, ["rev-parse", "HEAD"]);
  await writeFiles(repo, { "b.ts": "child edit\n" });
  // Meanwhile a sibling agent in the same tree writes its own file.
  await writeFiles(repo, { "sibling.txt": "not the child's\n" });
  const { code, report } = await gateJson(
    repo,
    result(["a.ts", "./b.ts"], [{ kind: "commit", ref: childHead, ok: true }], {
      working_context: { files_read: ["dirty.ts"], branch: "main", head: childHead },
    }),
    ["--since", since],
  );
  assertEquals(code, 0, JSON.stringify(report));
  assertEquals(report.changes, {
    confirmed: ["a.ts", "b.ts"],
    claimed_unobserved: [],
    observed_unclaimed: ["sibling.txt"],
  });
  assertEquals(report.recent_files, ["a.ts", "b.ts"]);
  assertExcludes(JSON.stringify(report.changes.confirmed), "sibling");
});

Deno.test("gate --since rejects a claimed change that nobody made and notices edits to already-dirty files", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a\n", "dirty.ts": "d\n" } });
  await writeFiles(repo, { "dirty.ts": "parent edit\n" });
  const since = await snapshot(repo);
  await writeFiles(repo, { "dirty.ts": "parent edit, then child edit\n" });
  const evidence = [{ kind: "file", ref: "dirty.ts", ok: true }];
  const { code, report } = await gateJson(repo, result(["dirty.ts", "ghost.ts"], evidence), [
    "--since",
    since,
  ]);
  assertEquals(code, 1);
  assertEquals(report.changes, {
    confirmed: ["dirty.ts"],
    claimed_unobserved: ["ghost.ts"],
    observed_unclaimed: [],
  });
  assertEquals(report.reasons, ['Claimed changes were not observed: "ghost.ts"']);
});

Deno.test("gate --since works in a SHA-256 repository and prints human text without --json", async () => {
  const repo = await makeRepo({ objectFormat: "sha256" });
  const since = await snapshot(repo);
  await writeFiles(repo, { "new.ts": "n\n" });
  const head = await commitAll(repo, "child");
  const r = await bin("gate", ["--since", since], {
    cwd: repo,
    stdin: result(["new.ts"], [{ kind: "commit", ref: head, ok: true }]),
  });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertEquals(
    r.stdout,
    `verdict: accept\nevidence: verified commit ${head}\nconfirmed: new.ts\nrecent_file: new.ts\n`,
  );
});

Deno.test("gate --since in a linked worktree observes that worktree, and refuses a snapshot from another one", async () => {
  const repo = await makeRepo();
  const linked = `${await tempDir()}/wt`;
  await git(repo, ["worktree", "add", "-q", "-b", "side", linked]);
  const since = await snapshot(linked);
  await writeFiles(linked, { "child.ts": "c\n" });
  await writeFiles(repo, { "main-only.ts": "m\n" });
  const evidence = [{ kind: "file", ref: "child.ts", ok: true }];
  const here = await gateJson(linked, result(["child.ts"], evidence), ["--since", since]);
  assertEquals([here.code, here.report.changes.observed_unclaimed], [0, []]);
  const there = await bin("gate", ["--since", since], {
    cwd: repo,
    stdin: result(["child.ts"], evidence),
  });
  assertEquals(there.code, 3);
  assertIncludes(there.stderr, `error: Cannot evaluate: snapshot was taken in "${linked}"`);
});
