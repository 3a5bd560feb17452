/**
 * What is ignored is not decided by settings a child can write, and the check that an
 * ignored file is in the way is not a check before use, through the real binaries.
 *
 * - a child that writes `core.excludesFile=/dev/null` into the shared config, or a
 *   `!.env.local` line into `<common>/info/exclude`, cannot get the user's globally ignored
 *   secret into the next spawn: the spawn (and the harness form) is refused in one line,
 *   no worktree is made, and the secret's bytes never reach the shared object store;
 * - the user's ignore file is found as git finds it, from the global configuration (an
 *   `includeIf "gitdir:"` section included) or its default (`$XDG_CONFIG_HOME/git/ignore`,
 *   `$HOME/.config/git/ignore`), never from the repository's;
 * - a child that un-ignores the secret in its own `.gitignore` and plants either setting
 *   cannot land over the parent's secret: refused, `ignored`, nothing landed; nor when it
 *   toggles the `!` line on for the land's check and off for its checkout;
 * - a correct spawn still carries untracked files that are not ignored (a `.gitignore` `!`
 *   line outranks the user's file, as in git), and they land.
 *
 * The user's ignore file lives in a temp HOME / XDG_CONFIG_HOME given to each binary's
 * environment (never this process's), with the system configuration off.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, type Run, run, tempDir } from "./_helpers.ts";
import { removeWorktrees } from "./_worktree_fixture.ts";
import { exists, raceAt, result, TEN, text } from "./_land_race_fixture.ts";

const SECRET = "API_TOKEN=parent-only\n";
const CHILDS = "API_TOKEN=the-childs\n";

/** A parent with an untracked secret its user's ignore file ignores, and its binaries' env. */
interface Fam {
  parent: string;
  kids: string;
  home: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

/**
 * A committed parent (`f.txt`, a `.gitignore` of `*.log`), an untracked `u.txt` and the
 * untracked secret `.env.local`, ignored only by the user's ignore file.
 *
 * @param how Where the user's ignore file is: the XDG default, the HOME default, or a file
 *   the global configuration names.
 */
async function fam(
  how: "xdg" | "home" | "global" | "includeif" = "xdg",
  patterns = ".env.local\n",
): Promise<Fam> {
  const parent = await makeRepo({ files: { "f.txt": TEN, ".gitignore": "*.log\n" } });
  const kids = await tempDir("tether-kids-");
  const home = await tempDir("tether-home-");
  const env: Record<string, string> = { HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
  if (how === "xdg") {
    env.XDG_CONFIG_HOME = join(home, "xdg");
    await Deno.mkdir(join(home, "xdg", "git"), { recursive: true });
    await Deno.writeTextFile(join(home, "xdg", "git", "ignore"), patterns);
  } else if (how === "home") {
    env.XDG_CONFIG_HOME = ""; // unset, to git
    await Deno.mkdir(join(home, ".config", "git"), { recursive: true });
    await Deno.writeTextFile(join(home, ".config", "git", "ignore"), patterns);
  } else if (how === "global") {
    env.XDG_CONFIG_HOME = "";
    await Deno.writeTextFile(join(home, "my-ignore"), patterns);
    await Deno.writeTextFile(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/my-ignore\n");
  } else {
    // Set only for repositories under the parent's directory,
    // beside a default ignore file that git does not read there.
    env.XDG_CONFIG_HOME = "";
    await Deno.writeTextFile(join(home, "work-ignore"), patterns);
    await Deno.writeTextFile(join(home, "work.inc"), "[core]\n\texcludesFile = ~/work-ignore\n");
    await Deno.writeTextFile(
      join(home, ".gitconfig"),
      `[includeIf "gitdir:${await Deno.realPath(parent)}/"]\n\tpath = ${join(home, "work.inc")}\n`,
    );
    await Deno.mkdir(join(home, ".config", "git"), { recursive: true });
    await Deno.writeTextFile(join(home, ".config", "git", "ignore"), "*.tmp\n");
  }
  await Deno.writeTextFile(join(parent, ".env.local"), SECRET);
  await Deno.writeTextFile(join(parent, "u.txt"), "untracked\n");
  return {
    parent,
    kids,
    home,
    env,
    cleanup: async () => {
      try {
        await removeWorktrees(parent);
      } finally {
        for (const dir of [parent, kids, home]) {
          await Deno.remove(dir, { recursive: true }).catch(() => {});
        }
      }
    },
  };
}

/** `handshake --worktree <kids>/<name> --json` in the parent. */
function spawnRun(f: Fam, name: string): Promise<Run> {
  return bin("handshake", ["--worktree", join(f.kids, name), "--json"], {
    cwd: f.parent,
    env: f.env,
  });
}

/** Spawn one child; its path and seed. */
async function spawn(f: Fam, name: string): Promise<[string, string]> {
  const r = await spawnRun(f, name);
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return [doc.worktrees[0].path, doc.seed];
}

/** `gate --worktree DIR --seed SEED --land` in the parent, claiming `claims`. */
function land(
  f: Fam,
  dir: string,
  seed: string,
  claims: string[],
  env: Record<string, string> = {},
): Promise<Run> {
  return bin("gate", ["--worktree", dir, "--seed", seed, "--land"], {
    cwd: f.parent,
    stdin: result(...claims),
    env: { ...f.env, ...env },
  });
}

/** Whether the shared object store holds the secret's bytes (as a blob). */
async function secretStored(f: Fam): Promise<boolean> {
  const id = await git(f.parent, ["hash-object", "--no-filters", "--", ".env.local"]);
  return (await run("git", ["cat-file", "-e", id], { cwd: f.parent })).code === 0;
}

/** The two settings a child can plant, from its own worktree, in the shared `.git`. */
const PLANTS: [string, (child: string) => Promise<void>][] = [
  ["core.excludesFile=/dev/null in the shared config", async (child) => {
    await git(child, ["config", "core.excludesFile", "/dev/null"]);
  }],
  ["a !.env.local line in <common>/info/exclude", async (child) => {
    const common = await git(child, ["rev-parse", "--path-format=absolute", "--git-common-dir"]);
    await Deno.writeTextFile(join(common, "info", "exclude"), "!.env.local\n", { append: true });
  }],
];

for (const [what, plant] of PLANTS) {
  Deno.test(`spawn: ${what}: the next spawn is refused, the secret in no worktree or object`, async () => {
    const f = await fam();
    try {
      const [first] = await spawn(f, "first");
      assertEquals(await exists(join(first, ".env.local")), false);
      assertEquals(await text(first, "u.txt"), "untracked\n");
      await plant(first);
      const r = await spawnRun(f, "second");
      assertEquals(r.code, 3, r.stdout + r.stderr);
      assertEquals(r.stdout, "");
      const lines = r.stderr.trim().split("\n");
      assertEquals(lines.length, 1, r.stderr);
      assertIncludes(lines[0]!, `The user's ignore file ${join(f.home, "xdg", "git", "ignore")}`);
      assertIncludes(lines[0]!, `ignores ".env.local", but the repository's settings do not`);
      assertEquals(await exists(join(f.kids, "second")), false, "no worktree is made");
      assertEquals(await secretStored(f), false, "the secret's bytes reached the object store");
      assertEquals(await text(f.parent, ".env.local"), SECRET);
    } finally {
      await f.cleanup();
    }
  });

  Deno.test(`land: ${what} and a .gitignore ! line in the child: refused, the parent's secret kept`, async () => {
    const f = await fam();
    try {
      const [child, seed] = await spawn(f, "c1");
      await Deno.writeTextFile(join(child, ".gitignore"), "*.log\n!.env.local\n");
      await Deno.writeTextFile(join(child, ".env.local"), CHILDS);
      await plant(child);
      const r = await land(f, child, seed, [".gitignore", ".env.local"]);
      assertEquals(r.code, 1, r.stdout + r.stderr);
      assertIncludes(
        r.stdout,
        "refused: nothing landed; the parent has ignored files or directories in the way: .env.local",
      );
      assertEquals(await text(f.parent, ".env.local"), SECRET);
      assertEquals(await text(f.parent, ".gitignore"), "*.log\n");
    } finally {
      await f.cleanup();
    }
  });
}

Deno.test("the user's ignore file is found as git finds it: named by the global config, or $HOME/.config/git/ignore", async () => {
  for (const how of ["global", "home"] as const) {
    const f = await fam(how);
    try {
      const [first] = await spawn(f, "first");
      assertEquals(await exists(join(first, ".env.local")), false, how);
      await PLANTS[0]![1](first);
      const r = await spawnRun(f, "second");
      assertEquals(r.code, 3, `${how}: ${r.stdout}${r.stderr}`);
      const file = how === "global"
        ? join(f.home, "my-ignore")
        : join(f.home, ".config", "git", "ignore");
      assertIncludes(r.stderr, `The user's ignore file ${file} ignores ".env.local"`);
      assertEquals(await secretStored(f), false, how);
    } finally {
      await f.cleanup();
    }
  }
});

Deno.test("the harness form is refused the same way", async () => {
  const f = await fam();
  try {
    await PLANTS[1]![1](f.parent);
    const r = await bin("handshake", ["wrap", "--workspace-mode", "worktree"], {
      cwd: f.parent,
      stdin: "task\n",
      env: f.env,
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `ignores ".env.local", but the repository's settings do not`);
    assertEquals(await secretStored(f), false);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a correct spawn carries untracked files that are not ignored (a .gitignore ! line outranks the user's file) and they land", async () => {
  const f = await fam("xdg", ".env*\n");
  try {
    await Deno.writeTextFile(join(f.parent, ".gitignore"), "*.log\n!.env.example\n");
    await git(f.parent, ["commit", "-q", "-am", "carry .env.example"]);
    await Deno.writeTextFile(join(f.parent, ".env.example"), "API_TOKEN=\n");
    const [child, seed] = await spawn(f, "c1");
    assertEquals(await text(child, "u.txt"), "untracked\n");
    assertEquals(await text(child, ".env.example"), "API_TOKEN=\n");
    assertEquals(await exists(join(child, ".env.local")), false);
    assertEquals(await secretStored(f), false);
    await Deno.writeTextFile(join(child, "u.txt"), "untracked\nchild\n");
    await Deno.writeTextFile(join(child, ".env.example"), "API_TOKEN=\nOTHER=\n");
    const r = await land(f, child, seed, ["u.txt", ".env.example"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths");
    assertEquals(await text(f.parent, "u.txt"), "untracked\nchild\n");
    assertEquals(await text(f.parent, ".env.example"), "API_TOKEN=\nOTHER=\n");
    assertEquals(await text(f.parent, ".env.local"), SECRET);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a ! line on for the land's check and off for its checkout cannot get the ignored file overwritten", async () => {
  const f = await fam();
  const exclude = join(f.parent, ".git", "info", "exclude");
  const saved = join(f.home, "exclude.saved");
  const mark = join(f.home, "toggled");
  await Deno.copyFile(exclude, saved);
  // On when the land lists what is in the way, off again before anything else runs.
  const shim = await raceAt(
    "--directory",
    `printf '!.env.local\\n' >> '${exclude}'; : > '${mark}'`,
    `cp '${saved}' '${exclude}'`,
  );
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, ".gitignore"), "*.log\n!.env.local\n");
    await Deno.writeTextFile(join(child, ".env.local"), CHILDS);
    const r = await land(f, child, seed, [".gitignore", ".env.local"], shim.env);
    assertOk(await exists(mark), "the toggle never ran");
    assertEquals(await text(f.parent, ".env.local"), SECRET, r.stdout + r.stderr);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertIncludes(
      r.stdout,
      "refused: nothing landed; the parent has ignored files or directories in the way: .env.local",
    );
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("an ignore file set in an includeIf gitdir: section is the user's: a child's info/exclude line gets the next spawn refused", async () => {
  const f = await fam("includeif");
  try {
    const [first] = await spawn(f, "first");
    assertEquals(await exists(join(first, ".env.local")), false);
    await PLANTS[1]![1](first);
    const r = await spawnRun(f, "second");
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `The user's ignore file ${join(f.home, "work-ignore")}`);
    assertEquals(await exists(join(f.kids, "second")), false, "no worktree is made");
    assertEquals(await secretStored(f), false, "the secret's bytes reached the object store");
  } finally {
    await f.cleanup();
  }
});

Deno.test("with an includeIf gitdir: section, the default ignore file git does not read there plays no part: a correct spawn carries debug.tmp", async () => {
  const f = await fam("includeif");
  try {
    await Deno.writeTextFile(join(f.parent, "debug.tmp"), "debug\n");
    const [child] = await spawn(f, "c");
    assertEquals(await text(child, "debug.tmp"), "debug\n");
    assertEquals(await exists(join(child, ".env.local")), false);
  } finally {
    await f.cleanup();
  }
});

Deno.test("with an includeIf gitdir: section, a lookup in which git read no repository configuration is refused, never taken as nothing set", async () => {
  const f = await fam("includeif");
  try {
    // As git answers while a child has the shared .git broken for that one call: no local
    // record. A repository without the version setting shows the same, and is refused too.
    await git(f.parent, ["config", "--unset", "core.repositoryformatversion"]);
    const r = await spawnRun(f, "c");
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "cannot read the repository's configuration");
    assertEquals(await exists(join(f.kids, "c")), false, "no worktree is made");
  } finally {
    await f.cleanup();
  }
});
