/**
 * Review verify-2, finding F1, through the real binaries: configuration carried in git's
 * environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`, `GIT_CONFIG_PARAMETERS`,
 * `GIT_CONFIG_GLOBAL`) reached verify's `git status` unseen, so `status.showUntrackedFiles=no`
 * there hid an untracked file the block's clean tree does not have, and verify printed a
 * match. The hostile review of the first fix added an empty `GIT_CONFIG_GLOBAL` (git's trace
 * does not name empty variables) and `GIT_REPLACE_REF_BASE`. Now the probe compares every
 * setting git reads with and without the caller's environment (HOME and XDG_CONFIG_HOME
 * kept), and the variables that change what status reads; when anything differs, status is
 * taken again without the environment, and a different answer is refused (exit 3). Settings
 * that change nothing status prints are no halt.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, gitShim, makeRepo, tempDir } from "./_helpers.ts";

const REASON = "git's environment changes its configuration or what it reads";

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
      assertIncludes(hidden.stdout, REASON);
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
    assertIncludes(hidden.stdout, REASON);
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
    assertIncludes(made.stderr, REASON);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify-2 F1: a git that names none of its environment still gets the second status: refused, never a match", async () => {
  const { repo, block } = await divergedRepo();
  const shim = await gitShim("unset GIT_TRACE2_EVENT"); // git traces nothing
  try {
    const env = { ...shim.env, ...HIDE_UNTRACKED };
    const hidden = await bin("verify", [], { cwd: repo, stdin: block, env });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, "git's trace named nothing");
    await Deno.remove(join(repo, "evil.txt"));
    const clean = await bin("verify", [], { cwd: repo, stdin: block, env: shim.env });
    assertEquals(clean.code, 0, clean.stdout + clean.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(shim.dir, { recursive: true });
  }
});

Deno.test("verify-2 F1: an empty GIT_CONFIG_GLOBAL (no global config, and git's trace names no empty variable) that hides a file is refused", async () => {
  const home = await tempDir("tether-home-");
  const repo = await makeRepo();
  try {
    // The global config names its own ignore file; a stale default one lists evil.txt and
    // counts only once the global config is gone.
    await Deno.mkdir(join(home, ".config", "git"), { recursive: true });
    await Deno.writeTextFile(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/.ign\n");
    await Deno.writeTextFile(join(home, ".ign"), "*.tmp\n");
    await Deno.writeTextFile(join(home, ".config", "git", "ignore"), "evil.txt\n");
    const env = { HOME: home, XDG_CONFIG_HOME: "" };
    const block = (await bin("handshake", [], { cwd: repo, env })).stdout;
    await Deno.writeTextFile(join(repo, "evil.txt"), "x\n");
    const plain = await bin("verify", [], { cwd: repo, stdin: block, env });
    assertEquals(plain.code, 1, plain.stdout);
    const hidden = await bin("verify", [], {
      cwd: repo,
      stdin: block,
      env: { ...env, GIT_CONFIG_GLOBAL: "" },
    });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, REASON);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("verify-2 F1: GIT_REPLACE_REF_BASE naming a look-alike of HEAD that hides a staged change is refused", async () => {
  const repo = await makeRepo({ files: { "a.txt": "one\n" } });
  try {
    const block = (await bin("handshake", [], { cwd: repo })).stdout;
    const c1 = await git(repo, ["rev-parse", "HEAD"]);
    await Deno.writeTextFile(join(repo, "a.txt"), "evil\n");
    await git(repo, ["add", "a.txt"]);
    const tree = await git(repo, ["write-tree"]);
    const lookalike = await git(repo, ["commit-tree", "-p", c1, "-m", "c1", tree]);
    await git(repo, ["update-ref", `refs/shadow/${c1}`, lookalike]);
    const env = { GIT_REPLACE_REF_BASE: "refs/shadow/" };
    const hidden = await bin("verify", [], { cwd: repo, stdin: block, env });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, "GIT_REPLACE_REF_BASE");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
