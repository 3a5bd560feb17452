/**
 * `deno task bundle`: each binary as one file that runs with `deno run <its exact flags>
 * <name>.js` from a directory outside the project, with no deno.json, no import map, an
 * empty Deno cache and an npm registry that cannot be reached (so zod must be inside).
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { bundleHeader, foreignImports, NAMES } from "../scripts/bundle.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";
import {
  commitAll,
  makeRepo,
  ROOT,
  run,
  type RunOptions,
  tempDir,
  writeFiles,
} from "./_helpers.ts";

/** Bundles built once for this module, in a temp dir (never the repository's dist/). */
let built: Promise<{ dir: string; denoDir: string }> | undefined;

function bundles() {
  built ??= (async () => {
    const dir = await tempDir("tether-bundles-");
    const r = await run(Deno.execPath(), [
      "run",
      "--allow-run",
      "--allow-read",
      "--allow-write",
      join(ROOT, "scripts/bundle.ts"),
      "--out",
      dir,
    ], { cwd: dir });
    if (r.code !== 0) throw new Error(`deno task bundle failed: ${r.stderr}`);
    return { dir, denoDir: await tempDir("tether-deno-dir-") };
  })();
  return built;
}

/** Run one bundle as a user would: `deno run <exact flags> <name>.js`, nothing else. */
async function runBundle(name: BinaryName, args: string[], options: RunOptions & { cwd: string }) {
  const { dir, denoDir } = await bundles();
  return run(Deno.execPath(), ["run", ...PERMISSIONS[name], join(dir, `${name}.js`), ...args], {
    ...options,
    env: { NO_COLOR: "1", DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/" },
  });
}

Deno.test("deno task bundle writes one file per command that import nothing but node: built-ins", async () => {
  const { dir } = await bundles();
  for (const name of NAMES) {
    const text = await Deno.readTextFile(join(dir, `${name}.js`));
    assertEquals(text.startsWith(bundleHeader(name)), true, name);
    assertEquals(foreignImports(text), [], name);
  }
  // Nothing but the bundles: no half-written file left behind.
  const files = [];
  for await (const entry of Deno.readDir(dir)) files.push(entry.name);
  assertEquals(files.sort(), NAMES.map((n) => `${n}.js`).sort());
});

Deno.test("bundled handshake and verify agree from outside the project: match", async () => {
  const repo = await makeRepo({ files: { "src/app.ts": "app\n" } });
  await writeFiles(repo, { "scratch.txt": "dirty\n" });
  const wrap = await runBundle("handshake", ["wrap"], { cwd: repo, stdin: "Task: fix it.\n" });
  assertEquals(wrap.code, 0, wrap.stderr);
  const verify = await runBundle("verify", [], { cwd: repo, stdin: wrap.stdout });
  assertEquals(verify.code, 0, verify.stdout + verify.stderr);
  assertIncludes(verify.stdout, "environment-verified: ");
  await writeFiles(repo, { "later.txt": "a sibling wrote this\n" });
  const stale = await runBundle("verify", [], { cwd: repo, stdin: wrap.stdout });
  assertEquals(stale.code, 1);
  assertIncludes(stale.stdout, "**Diverged fields:** parent_dirty_fingerprint");
});

Deno.test("bundled gate (zod inside) accepts a result with verified evidence", async () => {
  const repo = await makeRepo();
  const head = await commitAll(repo, "work");
  const result = {
    ok: true,
    summary: "done",
    files_changed: [],
    errors: [],
    evidence: [{ kind: "commit", ref: head, ok: true }],
  };
  const r = await runBundle("gate", ["--json"], { cwd: repo, stdin: JSON.stringify(result) });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertEquals(JSON.parse(r.stdout).verdict, "accept");
  const help = await runBundle("gate", ["--help"], { cwd: repo });
  assertEquals(help.code, 0);
  assertIncludes(help.stdout, "gate");
});

Deno.test("bundled coord sends and lists a message between worktrees under its exact flags", async () => {
  const fixture = await makeCoordRepo();
  const sent = await runBundle("coord", ["send", "E001", "--to", "Primary", "--subject", "hi"], {
    cwd: fixture.wt.W1,
    stdin: "body\n",
  });
  assertEquals(sent.code, 0, sent.stderr);
  assertEquals(sent.stdout, "E001-M0001\n");
  const inbox = await runBundle("coord", ["inbox", "E001"], { cwd: fixture.wt.Primary });
  assertEquals(inbox.code, 0, inbox.stderr);
  assertIncludes(inbox.stdout, "E001-M0001");
  const help = await runBundle("coord", ["--help"], { cwd: fixture.root });
  assertEquals(help.code, 0);
});

Deno.test("every bundle answers --version as itself", async () => {
  const outside = await tempDir();
  for (const name of NAMES) {
    const r = await runBundle(name, ["--version"], { cwd: outside });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout.startsWith(`${name} `), true, r.stdout);
  }
});

Deno.test("the bundle check finds imports that are not node: built-ins", () => {
  assertEquals(
    foreignImports('import { z } from "npm:zod@4.1.12";\nimport { join } from "node:path";'),
    ["npm:zod@4.1.12"],
  );
  assertEquals(foreignImports('const { parseArgs } = await import("node:util");'), []);
  assertEquals(foreignImports('const m = await import("./src/cli.ts");'), ["./src/cli.ts"]);
});
