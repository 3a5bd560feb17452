/**
 * The whole round trip through the real binaries: the parent wraps a task with
 * `handshake wrap --context`, the child runs `verify`, works, and returns a
 * SubagentResult, and the parent runs `gate --since` on it.
 */
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, type Run, writeFiles } from "./_helpers.ts";

const TOKEN = "ghp_RoundTripToken0123456789";

interface Spawn {
  repo: string;
  wrapped: string;
  since: string;
  outputs: Run[];
}

/** Parent side: a repository with a credentialed remote, wrapped task, child's Step 0. */
async function spawn(): Promise<Spawn> {
  const repo = await makeRepo({ files: { "src/app.ts": "app\n", "src/util.ts": "util\n" } });
  await git(repo, [
    "remote",
    "add",
    "origin",
    `https://agent:${TOKEN}@example.invalid/team/app.git`,
  ]);
  const wrap = await bin("handshake", ["wrap", "--context", "--recent", "src/app.ts"], {
    cwd: repo,
    stdin: "Task:\nRefactor src/app.ts.\n",
  });
  assertEquals(wrap.code, 0, wrap.stderr);
  const since = /^snapshot: ([0-9a-f]{40})$/m.exec(wrap.stdout)?.[1];
  assertOk(since, `no snapshot line in ${wrap.stdout}`);
  const verify = await bin("verify", [], { cwd: repo, stdin: wrap.stdout });
  assertEquals(verify.code, 0, verify.stdout + verify.stderr);
  assertIncludes(verify.stdout, "environment-verified: ");
  return { repo, wrapped: wrap.stdout, since, outputs: [wrap, verify] };
}

/** Child side: edit, add and commit; return the new HEAD. */
async function childWorks(repo: string): Promise<string> {
  await writeFiles(repo, { "src/app.ts": "app, refactored\n", "src/app_helpers.ts": "helpers\n" });
  await git(repo, ["add", "src/app.ts", "src/app_helpers.ts"]);
  await git(repo, ["commit", "-q", "-m", "refactor app"]);
  return await git(repo, ["rev-parse", "HEAD"]);
}

function allText(runs: Run[]): string {
  return runs.map((r) => r.stdout + r.stderr).join("\n");
}

Deno.test("round trip: wrapped prompt carries handshake, then context, then the task", async () => {
  const { repo, wrapped, outputs } = await spawn();
  const contextAt = wrapped.indexOf("\n\n[working-context]\n");
  const taskAt = wrapped.indexOf("\n\nTask:\nRefactor src/app.ts.\n");
  assertOk(wrapped.startsWith("<!-- subagent-env-handshake v1 -->"));
  assertOk(contextAt > 0 && taskAt > contextAt, wrapped);
  assertIncludes(wrapped, "recent_files:\n  - src/app.ts\n");
  assertIncludes(wrapped, "    - origin https://example.invalid/team/app.git\n");
  assertIncludes(wrapped, `  worktree: ${repo}\n`);
  assertExcludes(allText(outputs), TOKEN);
});

Deno.test("round trip: an honest child is accepted and its confirmed files merge into recent files", async () => {
  const { repo, since, outputs } = await spawn();
  const head = await childWorks(repo);
  const blob = await git(repo, ["rev-parse", "HEAD:src/app.ts"]);
  await writeFiles(repo, { "notes/sibling.md": "another agent's file\n" });
  const result = {
    ok: true,
    summary: "Refactored app.ts into a helper module",
    files_changed: ["src/app.ts", "src/app_helpers.ts"],
    errors: [],
    evidence: [
      { kind: "commit", ref: head, ok: true },
      { kind: "file", ref: "src/app.ts", ok: true, oid: blob },
      { kind: "test", ref: "deno test", ok: true },
    ],
    working_context: { files_read: ["src/util.ts"], branch: "main", head },
  };
  const gate = await bin("gate", ["--since", since, "--json"], {
    cwd: repo,
    stdin: JSON.stringify(result),
  });
  assertEquals(gate.code, 0, gate.stdout + gate.stderr);
  assertEquals(JSON.parse(gate.stdout), {
    verdict: "accept",
    reasons: [],
    evidence: [
      { kind: "commit", ref: head, status: "verified" },
      { kind: "file", ref: "src/app.ts", status: "verified" },
      { kind: "test", ref: "deno test", status: "unverified" },
    ],
    changes: {
      confirmed: ["src/app.ts", "src/app_helpers.ts"],
      claimed_unobserved: [],
      observed_unclaimed: ["notes/sibling.md"],
    },
    recent_files: ["src/app.ts", "src/app_helpers.ts"],
  });
  const human = await bin("gate", ["--since", since], { cwd: repo, stdin: JSON.stringify(result) });
  assertEquals(human.code, 0);
  assertIncludes(human.stdout, "recent_file: src/app.ts\nrecent_file: src/app_helpers.ts\n");
  assertExcludes(allText([...outputs, gate, human]), TOKEN);
});

Deno.test("round trip: a child claiming a change it did not make is rejected", async () => {
  const { repo, since } = await spawn();
  const head = await childWorks(repo);
  const result = {
    ok: true,
    summary: "Refactored app.ts and util.ts",
    files_changed: ["src/app.ts", "src/app_helpers.ts", "src/util.ts"],
    errors: [],
    evidence: [{ kind: "commit", ref: head, ok: true }],
  };
  const gate = await bin("gate", ["--since", since, "--json"], {
    cwd: repo,
    stdin: JSON.stringify(result),
  });
  assertEquals(gate.code, 1);
  const report = JSON.parse(gate.stdout);
  assertEquals(report.verdict, "reject");
  assertEquals(report.changes.claimed_unobserved, ["src/util.ts"]);
  assertEquals(report.reasons, ['Claimed changes were not observed: "src/util.ts"']);
  assertEquals(report.recent_files, ["src/app.ts"]);
});

Deno.test("round trip: a child that returns no evidence is rejected", async () => {
  const { repo, since } = await spawn();
  await childWorks(repo);
  const result = {
    ok: true,
    summary: "Done, no errors",
    files_changed: ["src/app.ts", "src/app_helpers.ts"],
    errors: [],
    evidence: [],
  };
  const gate = await bin("gate", ["--since", since], { cwd: repo, stdin: JSON.stringify(result) });
  assertEquals(gate.code, 1);
  assertIncludes(gate.stdout, "verdict: reject\nreason: Child reported ok with no evidence\n");
  assertIncludes(gate.stdout, "confirmed: src/app.ts\n");
});

Deno.test("round trip: a public audience gets no path, git state, snapshot or handshake block", async () => {
  const repo = await makeRepo();
  await git(repo, ["remote", "add", "origin", `https://agent:${TOKEN}@example.invalid/secret.git`]);
  const wrap = await bin("handshake", ["wrap", "--context", "--audience", "public"], {
    cwd: repo,
    stdin: "Task: summarise.\n",
  });
  assertEquals(wrap.code, 0, wrap.stderr);
  // The whole prompt, handshake block included, carries no path and no git state.
  assertEquals(
    wrap.stdout,
    "[working-context]\naudience: public\n[/working-context]\n\nTask: summarise.\n",
  );
  const json = await bin("handshake", ["--json", "--context", "--audience", "public"], {
    cwd: repo,
  });
  assertEquals(json.code, 0, json.stderr);
  const doc = JSON.parse(json.stdout);
  assertEquals(doc.context, { audience: "public" });
  assertOk(
    /^[0-9a-f]{40}$/.test(doc.snapshot_id),
    "the parent still gets a snapshot id to gate with",
  );
  assertExcludes(json.stdout, TOKEN);
});
