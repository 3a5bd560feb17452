/**
 * `deno task install` / `deno task uninstall` in a temp install root: the five commands
 * with exactly their flags, runnable by path from a directory outside the project,
 * replaced on a second install, removed by uninstall, and never a command of the same
 * name that tether did not install.
 */
import { dirname, join } from "../src/_path.ts";
import { pathToFileURL } from "node:url";
import { assertEquals, assertExcludes, assertIncludes } from "../src/_assert.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { NAMES } from "../scripts/bundle.ts";
import { makeRepo, ROOT, run, type RunOptions, tempDir, writeFiles } from "./_helpers.ts";

/** `deno task <task> <args>` in the project, as a user types it. */
function task(name: "install" | "uninstall", args: string[], env: Record<string, string> = {}) {
  return run(Deno.execPath(), ["task", "--quiet", name, ...args], {
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
  });
}

/** Run an installed command by its path; the launcher finds `deno` on PATH. */
function installed(root: string, name: BinaryName, args: string[], options: RunOptions = {}) {
  const path = `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
  return run(join(root, "bin", name), args, { ...options, env: { NO_COLOR: "1", PATH: path } });
}

/** The permission flags in a launcher's `deno run` line. */
async function launcherFlags(root: string, name: BinaryName): Promise<string[]> {
  const text = await Deno.readTextFile(join(root, "bin", name));
  const line = text.split("\n").find((l) => l.startsWith("exec deno run "));
  if (!line) throw new Error(`no deno run line in the ${name} launcher: ${text}`);
  return line.split(" ").filter((w) => /^(--allow-|--deny-|-A$|--unstable)/.test(w)).sort();
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

async function snapshot(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of NAMES) {
    files[`bin/${name}`] = await Deno.readTextFile(join(root, "bin", name));
    files[`lib/tether/${name}.js`] = await Deno.readTextFile(
      join(root, "lib/tether", `${name}.js`),
    );
  }
  return files;
}

Deno.test("deno task install puts the five commands under Deno's install root; they run by path, uninstall removes them", async (t) => {
  const root = await tempDir("tether-install-");

  await t.step(
    "install into DENO_INSTALL_ROOT (the default root) with exactly each flag set",
    async () => {
      const r = await task("install", [], { DENO_INSTALL_ROOT: root });
      assertEquals(r.code, 0, r.stdout + r.stderr);
      for (const name of NAMES) {
        assertIncludes(r.stdout, `installed ${join(root, "bin", name)} (`);
        assertEquals(await launcherFlags(root, name), [...PERMISSIONS[name]].sort(), name);
        // The launcher runs the copied bundle, not the clone's sources or its config.
        const launcher = await Deno.readTextFile(join(root, "bin", name));
        assertIncludes(launcher, pathToFileURL(join(root, "lib/tether", `${name}.js`)).href);
        assertExcludes(launcher, ROOT);
      }
    },
  );

  await t.step(
    "the installed commands work by path from a repository outside the project",
    async () => {
      const repo = await makeRepo();
      await writeFiles(repo, { "scratch.txt": "dirty\n" });
      const wrap = await installed(root, "handshake", ["wrap"], { cwd: repo, stdin: "Task.\n" });
      assertEquals(wrap.code, 0, wrap.stderr);
      const verify = await installed(root, "verify", [], { cwd: repo, stdin: wrap.stdout });
      assertEquals(verify.code, 0, verify.stdout + verify.stderr);
      assertIncludes(verify.stdout, "environment-verified: ");
      for (const name of NAMES) {
        const version = await installed(root, name, ["--version"], { cwd: repo });
        assertEquals(version.code, 0, version.stderr);
        assertEquals(version.stdout.startsWith(`${name} `), true, version.stdout);
      }
      const help = await installed(root, "gate", ["--help"], { cwd: repo });
      assertEquals(help.code, 0, help.stderr);
    },
  );

  await t.step("installing again replaces the commands with the same ones", async () => {
    const before = await snapshot(root);
    const r = await task("install", ["--root", root]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(await snapshot(root), before);
    // No staging dir or partial bundle is left beside the bundles.
    const left = [];
    for await (const e of Deno.readDir(join(root, "lib/tether"))) left.push(e.name);
    assertEquals(left.sort(), NAMES.map((n) => `${n}.js`).sort());
  });

  await t.step("uninstall removes the commands and the bundles; again is no error", async () => {
    const r = await task("uninstall", ["--root", root]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    for (const name of NAMES) {
      assertEquals(await exists(join(root, "bin", name)), false, name);
      assertEquals(await exists(join(root, "bin", `.${name}`)), false, name);
    }
    assertEquals(await exists(join(root, "lib")), false);
    const again = await task("uninstall", ["--root", root]);
    assertEquals(again.code, 0, again.stdout + again.stderr);
    assertIncludes(again.stdout, "verify: not installed");
  });
});

Deno.test("install never replaces a command of the same name it did not install, unless --force", async () => {
  const root = await tempDir("tether-install-");
  const foreign = "#!/bin/sh\necho someone else's gate\n";
  await writeFiles(root, { "bin/gate": foreign });

  const refused = await task("install", ["--root", root]);
  assertEquals(refused.code, 1);
  assertIncludes(
    refused.stderr,
    `error: ${join(root, "bin", "gate")} exists and was not installed by tether`,
  );
  assertEquals(await exists(join(root, "bin", "verify")), false);
  assertEquals(await exists(join(root, "lib")), false);

  const kept = await task("uninstall", ["--root", root]);
  assertEquals(kept.code, 0);
  assertIncludes(kept.stdout, "left ");
  assertEquals(await Deno.readTextFile(join(root, "bin", "gate")), foreign);

  const forced = await task("install", ["--root", root, "--force"]);
  assertEquals(forced.code, 0, forced.stdout + forced.stderr);
  assertEquals(await launcherFlags(root, "gate"), [...PERMISSIONS.gate]);
  await task("uninstall", ["--root", root]);
});

Deno.test("install rejects an unknown option as a usage error", async () => {
  const r = await task("install", ["--prefix", "/nowhere"]);
  assertEquals(r.code, 2);
  assertIncludes(r.stderr, "error: ");
});
