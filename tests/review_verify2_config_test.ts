/**
 * Review verify-2, finding F1, through the real binaries: configuration carried in git's
 * environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, `GIT_CONFIG_PARAMETERS`,
 * `GIT_CONFIG_GLOBAL`) reached verify's `git status` unseen, so `status.showUntrackedFiles=no`
 * there hid an untracked file the block's clean tree does not have, and verify printed a
 * match. Now a capture that sees such a variable takes status again without the caller's
 * environment and refuses (exit 3) when the two differ; a variable that changes nothing is
 * no halt.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, gitShim, makeRepo, tempDir } from "./_helpers.ts";

const HIDE_UNTRACKED = {
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "status.showUntrackedFiles",
  GIT_CONFIG_VALUE_0: "no",
};

/** A clean repository, its v1 block, and an untracked `evil.txt` the block's tree lacks. */
async function divergedRepo(flags: string[] = []): Promise<{ repo: string; block: string }> {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  const made = await bin("handshake", flags, { cwd: repo });
  assertEquals(made.code, 0, made.stderr);
  await Deno.writeTextFile(join(repo, "evil.txt"), "x\n");
  return { repo, block: made.stdout };
}

Deno.test("verify-2 F1: configuration in git's environment that hides an untracked file is refused (exit 3), never a match", async () => {
  const { repo, block } = await divergedRepo();
  const dir = await tempDir();
  try {
    const plain = await bin("verify", [], { cwd: repo, stdin: block });
    assertEquals(plain.code, 1, plain.stdout);
    const ignoring = join(dir, "ignore");
    await Deno.writeTextFile(ignoring, "evil.txt\n");
    const globalFile = join(dir, "gitconfig");
    await Deno.writeTextFile(globalFile, `[core]\n\texcludesFile = ${ignoring}\n`);
    for (
      const env of [
        HIDE_UNTRACKED,
        { GIT_CONFIG_PARAMETERS: "'status.showuntrackedfiles'='no'" },
        { GIT_CONFIG_GLOBAL: globalFile },
      ]
    ) {
      const hidden = await bin("verify", [], { cwd: repo, stdin: block, env });
      assertEquals(hidden.code, 3, `${JSON.stringify(env)}: ${hidden.stdout}${hidden.stderr}`);
      assertIncludes(hidden.stdout, "environment-unverified");
      assertIncludes(hidden.stdout, "configuration carried in git's environment");
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("verify-2 F1: a v2 block (exact mode) is refused the same way", async () => {
  const { repo, block } = await divergedRepo(["--exact"]);
  try {
    assertIncludes(block, "subagent-env-handshake v2");
    const hidden = await bin("verify", [], { cwd: repo, stdin: block, env: HIDE_UNTRACKED });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, "configuration carried in git's environment");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify-2 F1: configuration in the environment that changes nothing status prints is no halt", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    await Deno.writeTextFile(join(repo, "new.txt"), "n\n");
    const block = (await bin("handshake", [], { cwd: repo })).stdout;
    for (
      const env of [
        { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "color.ui", GIT_CONFIG_VALUE_0: "never" },
        { GIT_CONFIG_PARAMETERS: "'color.ui'='never'", GIT_CONFIG_NOSYSTEM: "1" },
      ]
    ) {
      const same = await bin("verify", [], { cwd: repo, stdin: block, env });
      assertEquals(same.code, 0, `${JSON.stringify(env)}: ${same.stdout}${same.stderr}`);
      assertIncludes(same.stdout, "environment-verified");
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify-2 F1: the parent's capture refuses it too: handshake exits 3 and prints no block", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    await Deno.writeTextFile(join(repo, "evil.txt"), "x\n");
    const made = await bin("handshake", [], { cwd: repo, env: HIDE_UNTRACKED });
    assertEquals(made.code, 3, made.stdout + made.stderr);
    assertEquals(made.stdout, "");
    assertIncludes(made.stderr, "configuration carried in git's environment");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify-2 F1: a git that names none of its environment still gets the second status: refused, never a match", async () => {
  const { repo, block } = await divergedRepo();
  const shim = await gitShim("unset GIT_TRACE2_ENV_VARS"); // git traces no variable
  try {
    const env = { ...shim.env, ...HIDE_UNTRACKED };
    const hidden = await bin("verify", [], { cwd: repo, stdin: block, env });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, "git named none of its variables");
    await Deno.remove(join(repo, "evil.txt"));
    const clean = await bin("verify", [], { cwd: repo, stdin: block, env: shim.env });
    assertEquals(clean.code, 0, clean.stdout + clean.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(shim.dir, { recursive: true });
  }
});
