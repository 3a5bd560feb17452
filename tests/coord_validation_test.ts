/**
 * coord validates every id, name and option before it acts: bad values are usage errors
 * (exit 2, `error:` and a hint, no stack trace); a malformed policy or a corrupt record is
 * an error (exit 3) reported by what it is; a corrupt message hides no other.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, tempDir } from "./_helpers.ts";
import { type CoordRepo, makeCoordRepo } from "./_coord_fixture.ts";

function assertUsage(r: { code: number; stdout: string; stderr: string }, what: string) {
  assertEquals(r.code, 2, `${what}: ${r.stderr}`);
  assertEquals(r.stdout, "", what);
  assertOk(r.stderr.startsWith("error: "), `${what}: ${r.stderr}`);
  assertIncludes(r.stderr, "--help");
  assertExcludes(r.stderr, "    at ");
}

async function withRepo(fn: (repo: CoordRepo) => Promise<void>, status = "") {
  const repo = await makeCoordRepo({ status });
  try {
    await fn(repo);
  } finally {
    await repo.cleanup();
  }
}

Deno.test("coord refuses hostile or malformed work item ids, message ids, lanes, paths and options as usage errors", async () => {
  await withRepo(async (repo) => {
    const send = (wi: string) =>
      repo.coord("W1", ["send", wi, "--to", "Primary", "--subject", "x"], "x");
    for (const wi of ["../x", "", "E001/../../x", "E".repeat(33), "-E001", "E 001", "E001-M0001"]) {
      assertUsage(await send(wi), `work item ${JSON.stringify(wi)}`);
    }
    for (
      const id of [
        "E001-M07",
        "E001-M0000",
        "../E001-M0001",
        "E001-M0001/..",
        "E001",
        "",
        "E001-M123456789",
      ]
    ) {
      assertUsage(await repo.coord("Primary", ["read", id]), `read ${JSON.stringify(id)}`);
      assertUsage(await repo.coord("Primary", ["ack", id]), `ack ${JSON.stringify(id)}`);
    }
    const cases: Array<[string, string[]]> = [
      ["lane with a slash", ["send", "E001", "--to", "../W2", "--subject", "x"]],
      ["empty lane", ["send", "E001", "--to", "Primary,", "--subject", "x"]],
      ["unknown lane", ["send", "E001", "--to", "W9", "--subject", "x"]],
      ["missing --to", ["send", "E001", "--subject", "x"]],
      ["missing --subject", ["send", "E001", "--to", "Primary"]],
      ["multi-line subject", ["send", "E001", "--to", "Primary", "--subject", "a\nb"]],
      ["over-long subject", ["send", "E001", "--to", "Primary", "--subject", "s".repeat(201)]],
      ["unknown type", ["send", "E001", "--to", "Primary", "--subject", "x", "--type", "ORDER"]],
      ["HANDOFF by send", [
        "send",
        "E001",
        "--to",
        "Primary",
        "--subject",
        "x",
        "--type",
        "HANDOFF",
      ]],
      ["unknown provenance", [
        "send",
        "E001",
        "--to",
        "Primary",
        "--subject",
        "x",
        "--provenance",
        "PROVEN",
      ]],
      ["bad reply id", ["send", "E001", "--to", "Primary", "--subject", "x", "--reply-to", "../x"]],
      ["reply into another work item", [
        "send",
        "E001",
        "--to",
        "Primary",
        "--subject",
        "x",
        "--reply-to",
        "E002-M0001",
      ]],
      ["unknown option", ["send", "E001", "--to", "Primary", "--subject", "x", "--as", "Primary"]],
      ["path escaping", [
        "handoff",
        "E001",
        "--to",
        "Primary",
        "--sha",
        "HEAD",
        "--path",
        "../x",
        "--subject",
        "x",
      ]],
      ["absolute path", [
        "handoff",
        "E001",
        "--to",
        "Primary",
        "--sha",
        "HEAD",
        "--path",
        "/etc/passwd",
        "--subject",
        "x",
      ]],
      ["missing --sha", [
        "handoff",
        "E001",
        "--to",
        "Primary",
        "--path",
        "README.md",
        "--subject",
        "x",
      ]],
      ["unknown command", ["await", "E001"]],
      ["no command", []],
      ["extra argument", ["inbox", "E001", "E002"]],
    ];
    for (const [what, args] of cases) assertUsage(await repo.coord("W1", args, "x"), what);
    assertUsage(
      await repo.coord(
        "W1",
        ["send", "E001", "--to", "Primary", "--subject", "x"],
        "b".repeat(1024 * 1024 + 1),
      ),
      "body over 1 MiB",
    );
    assertEquals((await repo.coord("W1", ["inbox", "E001"])).stdout, "", "nothing was stored");
  });
});

Deno.test("coord --help and --version exit 0; outside a repository it fails with exit 3 and one line", async () => {
  await withRepo(async (repo) => {
    const help = await repo.coord("W1", ["--help"]);
    assertEquals(help.code, 0);
    assertIncludes(help.stdout, "coord handoff");
    assertIncludes(help.stdout, "Exit codes");
    assertEquals((await repo.coord("W1", ["--version"])).code, 0);
  });
  const outside = await tempDir();
  try {
    const r = await bin("coord", ["inbox", "E001"], { cwd: outside });
    assertEquals(r.code, 3, r.stderr);
    assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("coord reports a corrupt message file by its id and still shows every other message", async () => {
  await withRepo(async (repo) => {
    const ids: string[] = [];
    for (const subject of ["one", "two", "three"]) {
      const r = await repo.coord(
        "W1",
        ["send", "E001", "--to", "Primary", "--subject", subject],
        subject,
      );
      assertEquals(r.code, 0, r.stderr);
      ids.push(r.stdout.trim());
    }
    assertEquals(ids, ["E001-M0001", "E001-M0002", "E001-M0003"]);
    const file = join(repo.wt.Primary, ".git", "coord-lite", "E001", "msgs", "000002.json");
    await Deno.writeTextFile(file, '{"format":"coord-lite/message@1","id":"E001-M0002"');
    const inbox = await repo.coord("Primary", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, inbox.stderr);
    assertIncludes(inbox.stderr, "E001-M0002 is corrupt");
    assertIncludes(inbox.stdout, "E001-M0001");
    assertIncludes(inbox.stdout, "E001-M0003");
    assertExcludes(inbox.stdout, "E001-M0002");
    const read = await repo.coord("Primary", ["read", "E001-M0002"]);
    assertEquals(read.code, 3);
    assertIncludes(read.stderr, "E001-M0002 is corrupt");
    assertEquals((await repo.coord("Primary", ["read", "E001-M0003"])).code, 0);
    const status = await repo.coord("Primary", ["status", "E001"]);
    assertIncludes(status.stdout, "E001-M0002 is corrupt");
    assertOk(/OWNER ACTION: .*E001-M0002/.test(status.stdout), status.stdout);
    // A record that lies about its id is corrupt too.
    const three = join(repo.wt.Primary, ".git", "coord-lite", "E001", "msgs", "000003.json");
    const text = (await Deno.readTextFile(three)).replace('"E001-M0003"', '"E001-M0001"');
    await Deno.writeTextFile(three, text);
    assertIncludes(
      (await repo.coord("Primary", ["inbox", "E001"])).stderr,
      "E001-M0003 is corrupt",
    );
  });
});

Deno.test("coord treats a malformed coord line in STATUS as an error, not a silent skip", async () => {
  for (
    const line of [
      "blind: W9",
      "released: W1 abc123",
      "base: HEAD",
      "lane: W1",
      "lane: W4 /abs/path",
      "lane: Main .",
    ]
  ) {
    await withRepo(async (repo) => {
      const r = await repo.coord("W1", ["inbox", "E001"]);
      assertEquals(r.code, 3, `${line}: ${r.stderr}`);
      assertIncludes(r.stderr, "STATUS");
    }, `${line}\n`);
  }
  await withRepo(async (repo) => {
    // Two names for one worktree (through a symlink) would split its ownership.
    await Deno.symlink(repo.wt.W1, join(repo.root, "alias"));
    await repo.setStatus("lane: W1b ../alias\n");
    const r = await repo.coord("W3", ["inbox", "E001"]);
    assertEquals(r.code, 3, r.stderr);
    assertIncludes(r.stderr, "same worktree");
  });
  await withRepo(async (repo) => {
    const r = await repo.coord("W1", ["inbox", "E001"]);
    assertEquals(r.code, 0, r.stderr);
  }, "owner: someone\nnotes: lanes and bases are words coord ignores here\n");
});

Deno.test("coord reads the policy from coord.policyRef when configured and rejects a ref that is a rev expression", async () => {
  await withRepo(async (repo) => {
    await repo.git("Primary", ["branch", "policy"]);
    await repo.setStatus("blind: W1 W3\n");
    // main now keeps W1 and W3 apart; the configured policy branch does not.
    assertEquals(
      (await repo.coord("W1", ["send", "E001", "--to", "W3", "--subject", "x"])).code,
      4,
    );
    await repo.git("Primary", ["config", "coord.policyRef", "refs/heads/policy"]);
    assertEquals(
      (await repo.coord("W1", ["send", "E001", "--to", "W3", "--subject", "x"])).code,
      0,
    );
    await repo.git("Primary", ["config", "coord.policyRef", "refs/heads/main~1"]);
    assertEquals((await repo.coord("W1", ["inbox", "E001"])).code, 3);
  });
});
