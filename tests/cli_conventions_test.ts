/**
 * One CLI voice across the four binaries: the same help and version words, the same
 * usage-error shape, a missing Deno permission named as one, and a repository without
 * commits described in tether's words.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import type { BinaryName } from "../src/permissions.ts";
import config from "../deno.json" with { type: "json" };
import { bin, commitAll, git, makeRepo, ROOT, run, tempDir, writeFiles } from "./_helpers.ts";

const BINARIES: BinaryName[] = ["handshake", "verify", "gate", "coord", "tether"];

/** Run an entry point with other flags than its own. */
function runWith(name: BinaryName, flags: string[], args: string[], cwd: string, stdin?: string) {
  return run(
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", ...flags, join(ROOT, `${name}.ts`), ...args],
    { cwd, env: { NO_COLOR: "1" }, ...(stdin === undefined ? {} : { stdin }) },
  );
}

Deno.test("every binary answers -h, --help and help with its help text, exit 0", async () => {
  for (const name of BINARIES) {
    for (const word of ["-h", "--help", "help"]) {
      const r = await bin(name, [word], { cwd: ROOT });
      assertEquals(r.code, 0, `${name} ${word}: ${r.stderr}`);
      assertOk(r.stdout.startsWith(`${name}`), `${name} ${word}: ${r.stdout.slice(0, 80)}`);
      assertOk(/-h, --help, help/.test(r.stdout), `${name} ${word} documents the words`);
      assertOk(/-V, --version/.test(r.stdout), `${name} ${word} documents -V`);
      assertEquals(r.stderr, "");
    }
  }
});

Deno.test("every binary answers -V and --version with its name and the version, exit 0", async () => {
  for (const name of BINARIES) {
    for (const word of ["-V", "--version"]) {
      const r = await bin(name, [word], { cwd: ROOT });
      assertEquals([r.code, r.stdout, r.stderr], [0, `${name} ${config.version}\n`, ""], name);
    }
  }
});

Deno.test("every binary reports a usage error as error: then hint: run '<name> --help', exit 2", async () => {
  for (const name of BINARIES) {
    const r = await bin(name, ["--no-such-option"], { cwd: ROOT });
    assertEquals(r.code, 2, name);
    assertEquals(r.stdout, "", name);
    const lines = r.stderr.split("\n");
    assertEquals(lines.length, 3, `${name}: ${r.stderr}`);
    assertOk(/^error: .*--no-such-option/.test(lines[0]!), name);
    assertEquals(lines[1], `hint: run '${name} --help'`);
  }
});

Deno.test("an option that takes one value, given twice, is a usage error (never the last one silently)", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  const kids = await tempDir("tether-kids-");
  const cases: [BinaryName, string[], string][] = [
    [
      "handshake",
      ["wrap", "--worktree", join(kids, "a"), "--worktree", join(kids, "b")],
      "worktree",
    ],
    ["handshake", ["--count", "2", "--count", "3"], "count"],
    ["gate", ["--since", "x", "--since", "y"], "since"],
  ];
  for (const [name, args, option] of cases) {
    const r = await bin(name, args, { cwd: repo, stdin: "task\n" });
    assertEquals(r.code, 2, `${name}: ${r.stderr}`);
    assertEquals(r.stdout, "");
    assertOk(r.stderr.startsWith(`error: Option --${option} is given more than once`), r.stderr);
  }
  // Nothing was made: no worktree, no branch.
  assertEquals((await git(repo, ["worktree", "list", "--porcelain"])).split("worktree ").length, 2);
  assertEquals(await git(repo, ["branch", "--list", "tether/*"]), "");
  // A flag without a value may repeat, as before.
  const json = await bin("handshake", ["--json", "--json"], { cwd: repo });
  assertEquals(json.code, 0, json.stderr);
});

Deno.test("coord status without --allow-read names the missing permission, not 'Not a git worktree'", async () => {
  const repo = await makeRepo();
  try {
    const r = await runWith("coord", ["--allow-run=git"], ["status"], repo);
    assertEquals(r.code, 3);
    assertEquals(r.stdout, "");
    assertOk(
      /^error: coord was started without the Deno permission --allow-read\b/.test(r.stderr),
      r.stderr,
    );
    assertOk(!/worktree/i.test(r.stderr), r.stderr);
    assertEquals(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("coord send without --allow-write names the missing permission, not a store failure", async () => {
  const repo = await makeRepo();
  try {
    await writeFiles(repo, { STATUS: `base: ${await git(repo, ["rev-parse", "HEAD"])}\n` });
    await commitAll(repo, "STATUS");
    const r = await runWith(
      "coord",
      ["--allow-run=git", "--allow-read"],
      ["send", "E001", "--to", "Primary", "--subject", "s"],
      repo,
      "body",
    );
    assertEquals([r.code, r.stdout], [3, ""]);
    assertOk(
      /^error: coord was started without the Deno permission --allow-write \(requires write access to "[^"]*coord-lite[^"]*"\)\n$/
        .test(r.stderr),
      r.stderr,
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a binary started without --allow-run=git names that flag, never 'git is not installed'", async () => {
  const repo = await makeRepo();
  try {
    const h = await runWith("handshake", [], [], repo);
    assertEquals([h.code, h.stdout], [3, ""]);
    assertEquals(
      h.stderr,
      'error: handshake was started without the Deno permission --allow-run=git (requires run access to "git")\n',
    );
    const block = await bin("handshake", [], { cwd: repo });
    const v = await runWith("verify", [], [], repo, block.stdout);
    assertEquals(v.code, 3);
    assertOk(/^environment-unverified: .*--allow-run=git/.test(v.stdout), v.stdout);
    assertOk(
      /^error: verify was started without the Deno permission --allow-run=git/.test(v.stderr),
      v.stderr,
    );
    const g = await runWith(
      "gate",
      [],
      [],
      repo,
      JSON.stringify({
        ok: true,
        summary: "s",
        files_changed: [],
        errors: [],
        evidence: [{ kind: "commit", ref: "a".repeat(40), ok: true }],
      }),
    );
    assertEquals(g.code, 3, g.stdout + g.stderr);
    assertOk(
      /^error: gate was started without the Deno permission --allow-run=git/.test(g.stderr),
      g.stderr,
    );
    for (const r of [h, v, g]) {
      assertOk(!/not installed|stack|at .*\.ts:\d+/.test(r.stderr), r.stderr);
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a repository with no commits gets one line in tether's words, no raw git text", async () => {
  const repo = await tempDir();
  try {
    await git(repo, ["init", "-q", "-b", "main"]);
    const h = await bin("handshake", [], { cwd: repo });
    assertEquals([h.code, h.stdout], [3, ""]);
    assertEquals(
      h.stderr,
      "error: The repository has no commits yet (HEAD names no commit): commit once, then run again\n",
    );
    const block = await bin("handshake", [
      "--head",
      "a".repeat(40),
      "--branch",
      "main",
      "--cwd",
      repo,
      "--fingerprint",
      "e3b0c44298fc",
    ], { cwd: repo });
    const v = await bin("verify", [], { cwd: repo, stdin: block.stdout });
    assertEquals(v.code, 3);
    assertOk(/^environment-unverified: .*no commits yet/.test(v.stdout), v.stdout);
    for (const r of [h, v]) assertOk(!/fatal:|ambiguous argument/.test(r.stdout + r.stderr));
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
