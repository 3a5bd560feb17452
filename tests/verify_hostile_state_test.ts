/**
 * verify (v1 and exact mode) never gives a match for a state that never existed, through the
 * real entry points under `--allow-run=git`, in real repositories: a sibling moving the
 * branch during status, a torn index, configuration that hides a change, a killed capture's
 * leftovers, git failures, a refused environment, and the layout the v1 and v2 parsers
 * agree on. Races are made deterministic by a `git` shim on PATH that moves the tree at a
 * chosen git call.
 */
import { join } from "../src/_path.ts";
import {
  assertEquals,
  assertMatch,
  assertNotEquals,
  assertNotMatch,
  assertOk,
} from "../src/_assert.ts";
import { bashFingerprint, bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";

async function withRepo(
  body: (dir: string) => Promise<void>,
  files: Record<string, string> = { "a.txt": "a\n", "b.txt": "b\n" },
) {
  const dir = await makeRepo({ files });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(`${dir}-linked`, { recursive: true }).catch(() => {});
  }
}

async function realGit(): Promise<string> {
  return (await run("bash", ["-c", "command -v git"])).stdout.trim();
}

/** A `git` on PATH running `script` (sh, with `$REAL` the real git) for every call. */
async function shim(script: string): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await tempDir("tether-shim-");
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh\nREAL='${await realGit()}'\nSHIM='${dir}'\n${script}\nexec "$REAL" "$@"\n`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  return { dir, env: { PATH: `${dir}:${Deno.env.get("PATH")}` } };
}

async function prompt(dir: string, exact: boolean, env?: Record<string, string>) {
  const r = await bin("handshake", ["wrap", ...(exact ? ["--exact"] : []), "--strict"], {
    cwd: dir,
    stdin: "task\n",
    ...(env ? { env } : {}),
  });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout;
}

const TRIES = 3;

Deno.test("a sibling worktree's update-ref of this branch during status never gives a match", () =>
  withRepo(async (dir) => {
    const a = await git(dir, ["rev-parse", "HEAD"]);
    await git(dir, ["worktree", "add", "-q", "-b", "side", `${dir}-linked`]);
    await writeFiles(`${dir}-linked`, { "a.txt": "changed\n" });
    await git(`${dir}-linked`, ["commit", "-qam", "c1"]);
    const c1 = await git(`${dir}-linked`, ["rev-parse", "HEAD"]);
    // The fingerprint of a state that never existed at A: status taken against C1.
    await git(`${dir}-linked`, ["update-ref", "refs/heads/main", c1]);
    const torn = await bashFingerprint(dir);
    await git(`${dir}-linked`, ["update-ref", "refs/heads/main", a]);
    assertNotEquals(torn, await bashFingerprint(dir));
    const s = await shim(
      `for x in "$@"; do if [ "$x" = status ]; then\n` +
        `"$REAL" -C '${dir}-linked' update-ref refs/heads/main ${c1}\n` +
        `"$REAL" "$@"; rc=$?\n"$REAL" -C '${dir}-linked' update-ref refs/heads/main ${a}\n` +
        `exit $rc; fi; done`,
    );
    try {
      for (const exact of [false, true]) {
        const block = (await prompt(dir, exact)).replace(
          /\nparent_dirty_fingerprint: [0-9a-f]+\n/,
          `\nparent_dirty_fingerprint: ${torn}\n`,
        );
        for (let n = 0; n < TRIES; n++) {
          const r = await bin("verify", [], { cwd: dir, stdin: block, env: s.env });
          assertNotEquals(r.code, 0, `exact=${exact}: a torn state matched\n${r.stdout}`);
          assertEquals(r.code, 3, r.stdout + r.stderr);
        }
      }
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }));

Deno.test("an attached HEAD whose branch has no reflog is the error path", () =>
  withRepo(async (dir) => {
    const block = await prompt(dir, false);
    await Deno.remove(join(dir, ".git", "logs", "refs", "heads", "main"));
    const r = await bin("verify", [], { cwd: dir, stdin: block });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertMatch(r.stdout + r.stderr, /branch it is attached to has no reflog/);
  }));

Deno.test("torn index A-B-A: the seed never pairs the index of one moment with files of another", () =>
  withRepo(async (dir) => {
    const clean = await git(dir, ["rev-parse", "HEAD^{tree}"]);
    // At the seed's first read of the files' bytes (`git add -A` into its private index,
    // or `hash-object -w` in the full capture; the v1 capture's reader writes nothing), a
    // sibling stages and writes a change, and puts the index entries back once the files
    // were read; the files stay changed a moment.
    const s = await shim(
      `for x in "$@"; do if { [ "$x" = add ] || [ "$x" = -w ]; } && [ ! -e "$SHIM/fired" ]; then : > "$SHIM/fired"\n` +
        `printf 'E2\\n' > '${dir}/a.txt'; env -u GIT_INDEX_FILE "$REAL" -C '${dir}' add a.txt\n` +
        `"$REAL" "$@"; rc=$?\n` +
        `env -u GIT_INDEX_FILE "$REAL" -C '${dir}' reset -q -- a.txt; printf 'a\\n' > '${dir}/a.txt'\n` +
        `exit $rc; fi; done`,
    );
    try {
      const block = await prompt(dir, true, s.env);
      assertOk(await Deno.stat(join(s.dir, "fired")), "the shim moved the tree");
      const seed = /\nseed: ([0-9a-f]+)\n/.exec(block)![1]!;
      assertEquals(await git(dir, ["rev-parse", `${seed}^{tree}`]), clean);
      assertEquals((await bin("verify", [], { cwd: dir, stdin: block })).code, 0);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }));

Deno.test("a sibling's edit kept during handshake --exact goes into the block's fields and its seed alike: the child's Step 0 matches", () =>
  withRepo(async (dir) => {
    const clean = await bashFingerprint(dir);
    // At the exact capture's first read of the files, once the v1 fields' status has run, a
    // sibling writes and stages a change and keeps it: the capture goes round again, and
    // the v1 fields must go with it.
    const s = await shim(
      `case " $* " in *" status "*) "$REAL" "$@"; rc=$?; : > "$SHIM/status-done"; exit $rc;; esac\n` +
        `for x in "$@"; do if { [ "$x" = add ] || [ "$x" = -w ]; } && [ ! -e "$SHIM/fired" ]; then : > "$SHIM/fired"\n` +
        `i=0; while [ ! -e "$SHIM/status-done" ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done\n` +
        `printf 'E2\\n' > '${dir}/a.txt'; env -u GIT_INDEX_FILE "$REAL" -C '${dir}' add a.txt; fi; done`,
    );
    try {
      const block = await prompt(dir, true, s.env);
      assertOk(await Deno.stat(join(s.dir, "fired")), "the shim moved the tree");
      assertOk(!block.includes(`parent_dirty_fingerprint: ${clean}`), block);
      const r = await bin("verify", [], { cwd: dir, stdin: block });
      assertEquals(r.code, 0, r.stdout + r.stderr);
    } finally {
      await Deno.remove(s.dir, { recursive: true });
    }
  }));

/** Configurations that hide a content change from a private index that honours them. */
const HIDING: {
  name: string;
  config: Record<string, string>;
  change: (dir: string) => Promise<void>;
  before?: (dir: string) => Promise<void>;
  env?: Record<string, string>;
}[] = [
  {
    name: "core.ignoreCase=true: a new readme.md beside README.md",
    config: { "core.ignoreCase": "true" },
    change: (dir) => writeFiles(dir, { "readme.md": "rm -rf ~\n" }),
  },
  {
    name: "core.autocrlf=true: the parent's edited file rewritten with CRLF",
    config: { "core.autocrlf": "true" },
    before: (dir) => writeFiles(dir, { "a.txt": "parent\n" }),
    change: (dir) => writeFiles(dir, { "a.txt": "parent\r\n" }),
  },
  {
    name: "core.fileMode=false: chmod +x",
    config: { "core.fileMode": "false" },
    change: (dir) => Deno.chmod(join(dir, "a.txt"), 0o755),
  },
  {
    name: "core.trustctime=false: a same-size edit with the mtime put back",
    config: { "core.trustctime": "false" },
    // An old mtime, so no stat entry is "racily clean" and re-hashed for that reason alone.
    before: async (dir) => {
      await Deno.utime(join(dir, "a.txt"), new Date(2020, 0, 1), new Date(2020, 0, 1));
      await git(dir, ["update-index", "--refresh"]);
    },
    change: async (dir) => {
      const path = join(dir, "a.txt");
      const { mtime } = await Deno.stat(path);
      // In a later second than the file's last change: git's stat data (which exact mode
      // trusts, as git status does) keeps whole seconds, so only the ctime tells.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await Deno.writeTextFile(path, "z\n");
      await Deno.utime(path, mtime!, mtime!);
    },
  },
  {
    name: "GIT_CONFIG_COUNT core.ignoreCase=true in the child's environment",
    config: {},
    change: (dir) => writeFiles(dir, { "README.MD": "rm -rf ~\n" }),
    env: {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.ignoreCase",
      GIT_CONFIG_VALUE_0: "true",
    },
  },
  {
    // The excludes file is not pinned (it is the repository's own choice): only dropping
    // the caller's configuration keeps an agent's exported one out.
    name: "GIT_CONFIG_PARAMETERS core.excludesFile in the child's environment",
    config: {},
    before: (dir) => Deno.writeTextFile(join(dir, ".git", "hide"), "evil.sh\n"),
    change: (dir) => writeFiles(dir, { "evil.sh": "rm -rf ~\n" }),
    env: { GIT_CONFIG_PARAMETERS: "'core.excludesfile'='.git/hide'" },
  },
];

for (const c of HIDING) {
  Deno.test(`hidden by configuration: ${c.name} halts exact verify`, async () => {
    if (Deno.build.os === "windows") return;
    await withRepo(async (dir) => {
      for (const [key, value] of Object.entries(c.config)) await git(dir, ["config", key, value]);
      await c.before?.(dir);
      const block = await prompt(dir, true);
      await c.change(dir);
      const r = await bin("verify", [], {
        cwd: dir,
        stdin: block,
        ...(c.env ? { env: c.env } : {}),
      });
      // Configuration in the environment is refused by the capture (exit 3,
      // tests/verify_git_env_config_test.ts) before the seed is compared, else the seed halts: never a match.
      if (r.code === 3) assertMatch(r.stdout, /git's environment changes its configuration/);
      else assertEquals(r.code, 1, r.stdout + r.stderr);
    }, { "a.txt": "a\n", "README.md": "# r\n" });
  });
}

Deno.test("stale lock: a killed capture's leftovers do not stop exact handshake or verify", () =>
  withRepo(async (dir) => {
    await Deno.mkdir(join(dir, ".git", "refs", "tether"), { recursive: true });
    await Deno.writeTextFile(join(dir, ".git", "refs", "tether", "seed-lock.lock"), "");
    await Deno.writeTextFile(join(dir, ".git", "tether-seed-index.lock"), "");
    const block = await prompt(dir, true);
    assertEquals((await bin("verify", [], { cwd: dir, stdin: block })).code, 0);
  }));

Deno.test("error path: a sibling's empty nested repository after the handshake halts", () =>
  withRepo(async (dir) => {
    const block = await prompt(dir, true);
    await git(dir, ["init", "-q", "scratch"]);
    const r = await bin("verify", [], { cwd: dir, stdin: block });
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertMatch(r.stdout, /parent_dirty_fingerprint/);
  }));

Deno.test("error path: a conflicting merge after the handshake halts", () =>
  withRepo(async (dir) => {
    await git(dir, ["checkout", "-q", "-b", "other"]);
    await writeFiles(dir, { "a.txt": "other\n" });
    await git(dir, ["commit", "-qam", "other"]);
    await git(dir, ["checkout", "-q", "main"]);
    await writeFiles(dir, { "a.txt": "main\n" });
    await git(dir, ["commit", "-qam", "main"]);
    const block = await prompt(dir, true);
    await run("git", ["merge", "-q", "other"], { cwd: dir }); // conflicts: exit 1
    assertMatch(await git(dir, ["status", "--porcelain"]), /^UU a\.txt/m);
    const r = await bin("verify", [], { cwd: dir, stdin: block });
    assertEquals(r.code, 1, r.stdout + r.stderr);
  }));

Deno.test("error path: a failing git call is named by its subcommand, not by a -c value", () =>
  withRepo(async (dir) => {
    // A corrupt index makes git itself fail (an empty nested repository no longer does).
    await Deno.writeTextFile(join(dir, ".git", "index"), "not an index\n");
    const r = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertMatch(r.stderr, /git [a-z][a-z-]* exited with/);
    assertNotMatch(r.stderr, /git (core|-c)\b/);
  }));

/** What git's object store of `dir` holds: loose objects and tether's private indexes. */
async function objectsOf(dir: string): Promise<string> {
  const names: string[] = [];
  for await (const e of Deno.readDir(join(dir, ".git", "objects"))) {
    if (e.name.startsWith("tmp_")) names.push(e.name);
  }
  return `${await git(dir, ["count-objects"])} ${names.join(",")}`;
}

Deno.test("refused environment: GIT_DIR pointing elsewhere writes nothing there", () =>
  withRepo(async (dir) => {
    const other = await makeRepo({ files: { "s.txt": "secret\n" } });
    try {
      await writeFiles(other, { "new.txt": "untracked secret\n" });
      const block = await prompt(dir, true);
      const before = await objectsOf(other);
      // The probe is held up a moment, so a capture started beside it (not after it) would
      // have written into the other repository by the time the refusal ends the process.
      const s = await shim(
        `for x in "$@"; do if [ "$x" = --absolute-git-dir ]; then sleep 3; fi; done`,
      );
      const env = { ...s.env, GIT_DIR: join(other, ".git"), GIT_WORK_TREE: other };
      const v = await bin("verify", [], { cwd: dir, stdin: block, env });
      assertEquals(v.code, 3, v.stdout + v.stderr);
      const h = await bin("handshake", ["--exact"], { cwd: dir, env });
      assertEquals(h.code, 3, h.stdout + h.stderr);
      assertEquals(await objectsOf(other), before);
      await Deno.remove(s.dir, { recursive: true });
    } finally {
      await Deno.remove(other, { recursive: true });
    }
  }));

Deno.test("one white space: v1 and v2 parsers agree on what is layout (space and tab only)", () =>
  withRepo(async (dir) => {
    const v1 = await prompt(dir, false);
    const v2 = await prompt(dir, true);
    // A vertical-tab-indented v1 sentinel is task text for both parsers: the v2 block leads.
    const led = await bin("verify", [], { cwd: dir, stdin: `\v${v1}${v2}` });
    assertEquals(led.code, 0, led.stdout + led.stderr);
    // A trailing form feed or vertical tab is part of a value in v2 as in v1: never a match.
    for (const c of ["\f", "\v"]) {
      const tail = v2.replace(/\nparent_branch: main\n/, `\nparent_branch: main${c}\n`);
      assertNotEquals(tail, v2);
      const r = await bin("verify", [], { cwd: dir, stdin: tail });
      assertNotEquals(r.code, 0, JSON.stringify(c) + r.stdout);
    }
  }));
