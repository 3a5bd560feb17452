/**
 * tether as a library another project uses: mod.ts imported by file URL from a project
 * with no deno.json and no import map (zod comes by its `npm:` specifier), under
 * `--allow-run=git` only, capturing a repository other than the current directory.
 */
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, makeRepo, ROOT, run, tempDir, writeFiles } from "./_helpers.ts";

const MOD_URL = pathToFileURL(join(ROOT, "mod.ts")).href;

/** A consumer script: the block for a directory, the capture, Step 0 there, a zod contract. */
const CONSUMER = `
import { captureLive, handshakeBlock, parseBlock, SubagentResult, verifyLive } from "${MOD_URL}";
const [dir, relative] = Deno.args;
const block = await handshakeBlock({ cwd: dir });
const verdict = await verifyLive(parseBlock(block), { cwd: dir });
const live = await captureLive({ cwd: relative });
const result = SubagentResult.safeParse({ ok: true, summary: "s", files_changed: [], errors: [], evidence: [] });
console.log(JSON.stringify({ block, status: verdict.status, cwd: live.parent_cwd, zod: result.success }));
`;

Deno.test("a project with no deno.json imports mod.ts by URL and gets a block for another directory", async () => {
  const repo = await makeRepo({ files: { "src/app.ts": "app\n" } });
  await writeFiles(repo, { "scratch.txt": "dirty\n" });
  const consumer = await tempDir("tether-consumer-");
  await Deno.writeTextFile(join(consumer, "main.ts"), CONSUMER);
  const sub = join(repo, "src");
  // Run from the consumer's directory: the repository is reached only through { cwd }.
  const r = await run(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-prompt",
    "--allow-run=git",
    join(consumer, "main.ts"),
    sub,
    relative(consumer, sub),
  ], { cwd: consumer });
  assertEquals(r.stderr, "");
  assertEquals(r.code, 0);
  const out = JSON.parse(r.stdout);
  assertIncludes(out.block, `parent_cwd: ${sub}\n`);
  assertEquals(out.status, "match");
  assertEquals(out.zod, true);
  // A relative cwd is made absolute against the current directory.
  assertEquals(out.cwd, sub);
  // The block the library built is the one the binary verifies in that directory.
  const verified = await bin("verify", [], { cwd: sub, stdin: `${out.block}\nTask.\n` });
  assertEquals(verified.code, 0, verified.stdout + verified.stderr);
  assertIncludes(verified.stdout, "environment-verified: ");
});
