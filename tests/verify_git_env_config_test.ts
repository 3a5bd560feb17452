/**
 * Configuration carried in git's environment (`GIT_CONFIG_COUNT`/`KEY_n`/`VALUE_n`,
 * `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_GLOBAL`, empty or not, `GIT_REPLACE_REF_BASE`,
 * `GIT_NO_REPLACE_OBJECTS`) never reaches verify's `git status` unseen: set to
 * `status.showUntrackedFiles=no` it would hide an untracked file the block's clean tree does
 * not have, and verify would print a match. The probe compares every setting git reads with
 * and without the caller's environment (HOME and XDG_CONFIG_HOME kept), and the variables
 * that change what status reads; when anything differs, status is taken again without the
 * environment, and a different answer is refused (exit 3). Settings that change nothing
 * status prints are no halt. Through the real binaries.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
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

Deno.test("configuration in git's environment that hides an untracked file is refused (exit 3), never a match", async () => {
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

Deno.test("a v2 block (exact mode) is refused the same way", async () => {
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

Deno.test("configuration in the environment that changes nothing status prints is no halt", async () => {
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

Deno.test("the parent's capture refuses it too: handshake exits 3 and prints no block", async () => {
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

Deno.test("a git that names none of its environment still gets the second status: refused, never a match", async () => {
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

Deno.test("an empty GIT_CONFIG_GLOBAL (no global config, and git's trace names no empty variable) that hides a file is refused", async () => {
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

Deno.test("GIT_REPLACE_REF_BASE naming a look-alike of HEAD that hides a staged change is never a match", async () => {
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
    // The capture's status looks where git looks by default: the staged change is seen.
    assertEquals(hidden.code, 1, hidden.stdout + hidden.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

// What else could give HEAD, a setting or a replacement another meaning than the user's.

/** A committed `f` = one, its clean v1 block, then `f` = two staged. */
async function stagedRepo(): Promise<{ repo: string; block: string }> {
  const repo = await makeRepo({ files: { f: "one\n" } });
  const block = (await bin("handshake", [], { cwd: repo })).stdout;
  await Deno.writeTextFile(join(repo, "f"), "two\n");
  await git(repo, ["add", "f"]);
  return { repo, block };
}

Deno.test("a forged commit-graph that gives HEAD the staged tree is never read: the staged change halts", async () => {
  const { repo, block } = await stagedRepo();
  try {
    await git(repo, ["commit-graph", "write", "--reachable"]);
    const graph = join(repo, ".git", "objects", "info", "commit-graph");
    const bytes = await Deno.readFile(graph);
    const hex = (h: string) => new Uint8Array(h.match(/../g)!.map((b) => parseInt(b, 16)));
    const [from, to] = [
      hex(await git(repo, ["rev-parse", "HEAD^{tree}"])),
      hex(await git(repo, ["write-tree"])),
    ];
    const at = bytes.findIndex((_, i) => from.every((b, j) => bytes[i + j] === b));
    assertOk(at > 0, "the tree id is in the graph");
    bytes.set(to, at);
    await Deno.writeFile(graph, bytes);
    assertEquals(await git(repo, ["status", "--porcelain"]), "", "git itself is fooled");
    const r = await bin("verify", [], { cwd: repo, stdin: block });
    assertEquals(r.code, 1, r.stdout + r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a config value holding a newline cannot spell the user's own settings: refused", async () => {
  const home = await tempDir("tether-home-");
  const repo = await makeRepo();
  try {
    await Deno.writeTextFile(
      join(home, ".gitconfig"),
      "[core]\n\texcludesFile = ~/.gi\n[user]\n\tname = U\n",
    );
    await Deno.writeTextFile(join(home, ".gi"), "*.tmp\n");
    const env = { HOME: home, XDG_CONFIG_HOME: "" };
    const block = (await bin("handshake", [], { cwd: repo, env })).stdout;
    await Deno.writeTextFile(join(repo, "evil.txt"), "x\n");
    const forged = join(home, "evil.cfg");
    await Deno.writeTextFile(forged, '[core]\n\texcludesFile = "~/.gi\\nglobal\\tuser.name\\tU"\n');
    await Deno.writeTextFile(join(home, ".gi\nglobal\tuser.name\tU"), "evil.txt\n");
    const r = await bin("verify", [], {
      cwd: repo,
      stdin: block,
      env: { ...env, GIT_CONFIG_GLOBAL: forged },
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stdout, REASON);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(home, { recursive: true });
  }
});

Deno.test("a setting written without a value (a boolean true) is no false halt", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  try {
    const config = join(repo, ".git", "config");
    await Deno.writeTextFile(config, "[pull]\n\trebase\n", { append: true });
    const made = await bin("handshake", [], { cwd: repo });
    assertEquals(made.code, 0, made.stderr);
    const r = await bin("verify", [], { cwd: repo, stdin: made.stdout });
    assertEquals(r.code, 0, r.stdout + r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("an empty GIT_REPLACE_REF_BASE (no trace names it) makes no ref a replacement: the staged change halts", async () => {
  const { repo, block } = await stagedRepo();
  try {
    const head = await git(repo, ["rev-parse", "HEAD"]);
    const lookalike = await git(repo, [
      "commit-tree",
      "-p",
      "HEAD",
      "-m",
      "c1",
      await git(repo, ["write-tree"]),
    ]);
    await git(repo, ["pack-refs", "--all"]);
    const packed = join(repo, ".git", "packed-refs");
    const lines = (await Deno.readTextFile(packed)).split("\n");
    lines.splice(1, 0, `${lookalike} ${head}`);
    await Deno.writeTextFile(packed, lines.join("\n"));
    const r = await bin("verify", [], {
      cwd: repo,
      stdin: block,
      env: { GIT_REPLACE_REF_BASE: "" },
    });
    assertEquals(r.code, 1, r.stdout + r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("GIT_NO_REPLACE_OBJECTS that hides a change the user's own git shows is refused", async () => {
  // The user's shell honours a replace ref: HEAD reads as a commit whose f is two, which the
  // parent's tree holds. The child's tree is back at one, which only a git that ignores
  // replace refs takes as clean.
  const repo = await makeRepo({ files: { f: "one\n" } });
  try {
    await Deno.writeTextFile(join(repo, "f"), "two\n");
    await git(repo, ["add", "f"]);
    const tree = await git(repo, ["write-tree"]);
    const lookalike = await git(repo, ["commit-tree", "-m", "c1", tree]);
    await git(repo, ["replace", await git(repo, ["rev-parse", "HEAD"]), lookalike]);
    const block = (await bin("handshake", [], { cwd: repo })).stdout;
    await Deno.writeTextFile(join(repo, "f"), "one\n");
    await git(repo, ["add", "f"]);
    const env = { GIT_NO_REPLACE_OBJECTS: "1" };
    const hidden = await bin("verify", [], { cwd: repo, stdin: block, env });
    assertEquals(hidden.code, 3, hidden.stdout + hidden.stderr);
    assertIncludes(hidden.stdout, "GIT_NO_REPLACE_OBJECTS");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
