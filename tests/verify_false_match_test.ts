/**
 * verify never gives a false match (or takes the wrong path) for a state the handshake did
 * not see: `GIT_DIR`/`GIT_WORK_TREE`/`GIT_INDEX_FILE` pointing elsewhere, a path or branch
 * that differs by a space, a ref that makes HEAD ambiguous, HEAD moving while status runs,
 * `/proc/self/cwd` as the parent's directory, a task quoting another block. Each test states
 * the false match and shows it does not happen, through the real entry points on real
 * throwaway repositories.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import { bashFingerprint, bin, commitAll, git, makeRepo, run, tempDir } from "./_helpers.ts";

const linux = Deno.build.os === "linux";

/** A block exactly as a bash parent writes it with printf (values taken as given). */
function bashBlock(head: string, branch: string, cwd: string, fp: string): string {
  return `<!-- subagent-env-handshake v1 -->\n\nparent_head: ${head}\nparent_branch: ${branch}\n` +
    `parent_cwd: ${cwd}\nparent_dirty_fingerprint: ${fp}\nworkspace_mode: shared\n` +
    `handshake_issued_at: 2026-12-01T00:00:00.0000000Z\n\n<!-- /subagent-env-handshake -->\n`;
}

async function wrap(cwd: string, task = "Task: review.\n"): Promise<string> {
  const r = await bin("handshake", ["wrap"], { cwd, stdin: task });
  if (r.code !== 0 || !r.stdout.includes("subagent-env-handshake v1")) throw new Error(r.stderr);
  return r.stdout;
}

async function cleanup(...dirs: string[]): Promise<void> {
  for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
}

async function realGit(): Promise<string> {
  return (await run("bash", ["-c", "command -v git"])).stdout.trim();
}

// f1 -----------------------------------------------------------------------------------

Deno.test("verify never measures another repository that GIT_DIR/GIT_WORK_TREE point at", async () => {
  const repo = await makeRepo();
  const clone = join(await tempDir(), "clone");
  try {
    await git(repo, ["clone", "-q", repo, clone]);
    const prompt = await wrap(repo);
    await git(repo, ["switch", "-q", "-c", "feature"]);
    await Deno.writeTextFile(join(repo, "README.md"), "changed\n");
    await commitAll(repo, "change");
    await Deno.writeTextFile(join(repo, "junk"), "junk\n");
    const env = { GIT_DIR: join(clone, ".git"), GIT_WORK_TREE: clone };
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: prompt, env });
    assertEquals(r.code, 3, r.stdout);
    assertIncludes(JSON.parse(r.stdout).reason, "git's environment points it away");
    const h = await bin("handshake", [], { cwd: repo, env });
    assertEquals(h.code, 3, h.stdout);
    assertEquals(h.stdout, "");
    assertIncludes(h.stderr, "GIT_DIR");
  } finally {
    await cleanup(repo, join(clone, ".."));
  }
});

Deno.test("a GIT_INDEX_FILE that hides an edit (skip-worktree) takes the error path, not a match", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  const scratch = await tempDir();
  try {
    const prompt = await wrap(repo); // clean tree
    await Deno.writeTextFile(join(repo, "a.txt"), "edited\n");
    const other = join(scratch, "index");
    await Deno.copyFile(join(repo, ".git", "index"), other);
    const env = { GIT_INDEX_FILE: other };
    const hide = await run("git", ["update-index", "--skip-worktree", "a.txt"], {
      cwd: repo,
      env,
    });
    assertEquals(hide.code, 0, hide.stderr);
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: prompt, env });
    assertEquals(r.code, 3, r.stdout);
    assertIncludes(JSON.parse(r.stdout).reason, "GIT_INDEX_FILE");
    // Without the variable, the edit is seen.
    assertEquals((await bin("verify", [], { cwd: repo, stdin: prompt })).code, 1);
  } finally {
    await cleanup(repo, scratch);
  }
});

// f2 -----------------------------------------------------------------------------------

Deno.test("a trailing space or no-break space in a bash parent's path never matches another directory", async () => {
  for (const blank of [" ", "\u00a0", "\u2003"]) {
    const base = await tempDir();
    try {
      const odd = join(base, `proj${blank}`);
      await Deno.mkdir(odd);
      await git(odd, ["init", "-q", "-b", "main"]);
      await Deno.writeTextFile(join(odd, "a"), "a\n");
      await git(odd, ["add", "a"]);
      await git(odd, ["commit", "-q", "-m", "i"]);
      const plain = join(base, "proj");
      await git(odd, ["clone", "-q", odd, plain]);
      const block = bashBlock(
        await git(odd, ["rev-parse", "HEAD"]),
        "main",
        odd,
        await bashFingerprint(odd),
      );
      for (const cwd of [plain, odd]) {
        const r = await bin("verify", ["--json"], { cwd, stdin: block });
        assertEquals(r.code, 3, `${JSON.stringify(blank)} in ${JSON.stringify(cwd)}: ${r.stdout}`);
        assertIncludes(JSON.parse(r.stdout).reason, "white space");
      }
      // The parent side refuses to write such a value at all.
      const h = await bin("handshake", [], { cwd: odd });
      assertEquals(h.code, 3, JSON.stringify(blank));
      assertIncludes(h.stderr, "cannot be carried in a v1 block");
    } finally {
      await cleanup(base);
    }
  }
});

Deno.test("a no-break space inside a branch name is part of the name, never trimmed away", async () => {
  const repo = await makeRepo();
  try {
    const head = await git(repo, ["rev-parse", "HEAD"]);
    await git(repo, ["switch", "-q", "-c", "main\u00a0x"]);
    const block = bashBlock(head, "main", repo, "e3b0c44298fc");
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: block });
    assertEquals(r.code, 1, r.stdout);
    assertEquals(JSON.parse(r.stdout).diverged, ["parent_branch"]);
    const own = await wrap(repo);
    assertIncludes(own, "parent_branch: main\u00a0x\n");
    assertEquals((await bin("verify", [], { cwd: repo, stdin: own })).code, 0);
  } finally {
    await cleanup(repo);
  }
});

// f3 -----------------------------------------------------------------------------------

Deno.test("a ref that makes HEAD ambiguous (tag HEAD, refs/remotes/HEAD) never shifts the branch", async () => {
  for (const ambiguity of [["tag", "HEAD"], ["update-ref", "refs/remotes/HEAD", "HEAD"]]) {
    const repo = await makeRepo();
    try {
      await git(repo, ambiguity);
      const prompt = await wrap(repo);
      assertEquals(parseBlock(prompt).kind === "block", true);
      assertIncludes(prompt, "parent_branch: main\n");
      await git(repo, ["branch", "feature", "main"]);
      await git(repo, ["switch", "-q", "feature"]);
      const r = await bin("verify", ["--json"], { cwd: repo, stdin: prompt });
      assertEquals(r.code, 1, r.stdout);
      assertEquals(JSON.parse(r.stdout).diverged, ["parent_branch"]);
      assertEquals(JSON.parse(r.stdout).observed.parent_branch, "feature");
    } finally {
      await cleanup(repo);
    }
  }
});

Deno.test("a tag named like the branch, made after the handshake, does not change the branch", async () => {
  const repo = await makeRepo();
  try {
    const prompt = await wrap(repo);
    await git(repo, ["tag", "main"]);
    const r = await bin("verify", [], { cwd: repo, stdin: prompt });
    assertEquals(r.code, 0, r.stdout);
    // The bash recipe's value is kept in normal repositories.
    await git(repo, ["tag", "-d", "main"]);
    assertIncludes(
      prompt,
      `parent_branch: ${await git(repo, ["rev-parse", "--abbrev-ref", "HEAD"])}\n`,
    );
  } finally {
    await cleanup(repo);
  }
});

Deno.test("a HEAD on a branch named HEAD is refused on both sides (it reads as detached)", async () => {
  const repo = await makeRepo();
  try {
    const head = await git(repo, ["rev-parse", "HEAD"]);
    await git(repo, ["update-ref", "refs/heads/HEAD", head]);
    await git(repo, ["symbolic-ref", "HEAD", "refs/heads/HEAD"]);
    const h = await bin("handshake", [], { cwd: repo });
    assertEquals(h.code, 3, h.stdout);
    assertIncludes(h.stderr, "refs/heads/HEAD");
    const r = await bin("verify", ["--json"], {
      cwd: repo,
      stdin: bashBlock(head, "HEAD", repo, "e3b0c44298fc"),
    });
    assertEquals(r.code, 3, r.stdout);
    assertIncludes(JSON.parse(r.stdout).reason, "branch named HEAD");
  } finally {
    await cleanup(repo);
  }
});

Deno.test("a HEAD on a remote-tracking ref never matches a branch spelled like that ref", async () => {
  const repo = await makeRepo();
  try {
    const head = await git(repo, ["rev-parse", "HEAD"]);
    await git(repo, ["update-ref", "refs/remotes/origin/main", head]);
    await git(repo, ["symbolic-ref", "HEAD", "refs/remotes/origin/main"]);
    const block = bashBlock(head, "refs/remotes/origin/main", repo, "e3b0c44298fc");
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: block });
    assertEquals(r.code, 1, r.stdout);
    assertEquals(JSON.parse(r.stdout).diverged, ["parent_branch"]);
  } finally {
    await cleanup(repo);
  }
});

// f4 -----------------------------------------------------------------------------------

/**
 * A repository whose tree alternates between (C1, " M a") and (C2, clean), with C2
 * recreated byte for byte each time (fixed dates), and the fingerprint of " M a".
 */
async function alternatingRepo() {
  const repo = await makeRepo({ files: { a: "a\n" } });
  const dates = {
    GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
    GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
    GIT_AUTHOR_NAME: "R",
    GIT_AUTHOR_EMAIL: "r@example.invalid",
    GIT_COMMITTER_NAME: "R",
    GIT_COMMITTER_EMAIL: "r@example.invalid",
  };
  await Deno.writeTextFile(join(repo, "a"), "a\nmod\n");
  await run("git", ["commit", "-qam", "c2"], { cwd: repo, env: dates });
  const c2 = await git(repo, ["rev-parse", "HEAD"]);
  await git(repo, ["reset", "-q", "--mixed", "HEAD~1"]);
  const dirty = await bashFingerprint(repo);
  return { repo, c2, dirty, dates };
}

Deno.test("HEAD that moves away and back while status runs is never paired with the other moment's status", async () => {
  const { repo, c2, dirty, dates } = await alternatingRepo();
  const shim = await tempDir();
  try {
    // Start at (C2, clean). The first time status runs, once the HEAD read that runs beside
    // it has answered (so only the reflog can tell),
    // the shim steps to (C1, " M a"), lets status see it, and steps back to C2 (the very
    // same commit) before status answers: HEAD reads before and after agree, status does not.
    await git(repo, ["reset", "-q", "--mixed", c2]);
    assertEquals(await bashFingerprint(repo), "e3b0c44298fc");
    const real = await realGit();
    const marker = join(shim, "raced");
    const headRead = join(shim, "head-read");
    const envLine = Object.entries(dates).map(([k, v]) => `${k}='${v}'`).join(" ");
    await Deno.writeTextFile(
      join(shim, "git"),
      `#!/bin/sh
case " $* " in
  *" status "*)
    if [ ! -e "${marker}" ]; then
      : > "${marker}"
      i=0; while [ ! -e "${headRead}" ] && [ $i -lt 500 ]; do /bin/sleep 0.01; i=$((i+1)); done
      "${real}" -C "${repo}" reset -q --mixed HEAD~1
      out=$("${real}" "$@"; echo x); rc=$?
      /usr/bin/env ${envLine} "${real}" -C "${repo}" commit -qam c2
      printf '%s' "\${out%x}"; exit 0
    fi ;;
  *" rev-parse --verify -q HEAD "*) "${real}" "$@"; rc=$?; : > "${headRead}"; exit $rc ;;
esac
exec "${real}" "$@"
`,
    );
    await Deno.chmod(join(shim, "git"), 0o755);
    const env = { PATH: `${shim}:${Deno.env.get("PATH")}` };
    const r = await bin("verify", [
      "--json",
      "--head",
      c2,
      "--branch",
      "main",
      "--cwd",
      repo,
      "--fingerprint",
      dirty,
    ], { cwd: repo, env });
    assertOk(await Deno.stat(marker), "the race ran");
    assertEquals(await git(repo, ["rev-parse", "HEAD"]), c2, "the shim stepped back to C2");
    assertOk(r.code !== 0, `verify matched (C2, " M a"), a state that never existed: ${r.stdout}`);
    // The capture was taken again at a quiet moment: it saw (C2, clean).
    assertEquals(r.code, 1, r.stdout);
    assertEquals(JSON.parse(r.stdout).observed.parent_dirty_fingerprint, "e3b0c44298fc");
  } finally {
    await cleanup(repo, shim);
  }
});

Deno.test("under a commit/reset loop, verify and handshake never report a state that never existed", async () => {
  const { repo, c2, dirty, dates } = await alternatingRepo();
  let stop = false;
  const loop = (async () => {
    let rounds = 0;
    while (!stop || rounds < 5) {
      await run("git", ["commit", "-qam", "c2"], { cwd: repo, env: dates });
      await run("git", ["reset", "-q", "--mixed", "HEAD~1"], { cwd: repo });
      rounds++;
    }
    return rounds;
  })();
  try {
    const args = ["--head", c2, "--branch", "main", "--cwd", repo, "--fingerprint", dirty];
    const codes: number[] = [];
    const blocks: string[] = [];
    for (let batch = 0; batch < 8; batch++) {
      const runs = await Promise.all([
        bin("verify", args, { cwd: repo }),
        bin("verify", args, { cwd: repo }),
        bin("verify", args, { cwd: repo }),
        bin("handshake", [], { cwd: repo }),
      ]);
      codes.push(...runs.slice(0, 3).map((r) => r.code));
      blocks.push(runs[3]!.stdout);
    }
    stop = true;
    assertOk((await loop) >= 5, "the loop ran");
    assertEquals(codes.filter((c) => c === 0).length, 0, `codes: ${codes.join(",")}`);
    for (const block of blocks) {
      const parsed = parseBlock(block);
      if (parsed.kind !== "block") continue; // refused: HEAD kept moving
      const { parent_head, parent_dirty_fingerprint } = parsed.handshake;
      assertOk(
        !(parent_head === c2 && parent_dirty_fingerprint === dirty),
        `handshake wrote (C2, " M a"), a state that never existed`,
      );
    }
  } finally {
    stop = true;
    await loop;
    await cleanup(repo);
  }
});

// f5 -----------------------------------------------------------------------------------

Deno.test({
  name: "parent_cwd /proc/self/cwd (or a symlink to it) never matches whatever directory asks",
  ignore: !linux,
  fn: async () => {
    const repo = await makeRepo({ files: { "a": "a\n", "x/y/b": "b\n" } });
    const links = await tempDir();
    try {
      const head = await git(repo, ["rev-parse", "HEAD"]);
      const link = join(links, "here");
      await Deno.symlink("/proc/self/cwd", link);
      for (const dir of [repo, join(repo, "x"), join(repo, "x/y")]) {
        for (const cwd of ["/proc/self/cwd", "/proc/thread-self/cwd", "/dev/fd/0"]) {
          const args = ["--head", head, "--branch", "main", "--cwd", cwd, "--fingerprint"];
          const r = await bin("verify", ["--json", ...args, "e3b0c44298fc"], { cwd: dir });
          assertEquals(r.code, 3, `${cwd} in ${dir}: ${r.stdout}`);
          assertIncludes(JSON.parse(r.stdout).reason, "names whoever reads it");
        }
        const viaLink = ["--head", head, "--branch", "main", "--cwd", link];
        const r = await bin("verify", ["--json", ...viaLink, "--fingerprint", "e3b0c44298fc"], {
          cwd: dir,
        });
        assertEquals(r.code, 1, `symlink to /proc/self/cwd in ${dir}: ${r.stdout}`);
        assertEquals(JSON.parse(r.stdout).diverged, ["parent_cwd"]);
      }
      const h = await bin("handshake", [
        "--head",
        head,
        "--branch",
        "main",
        "--cwd",
        "/proc/self/cwd",
        "--fingerprint",
        "e3b0c44298fc",
      ]);
      assertEquals(h.code, 2, h.stdout);
      assertIncludes(h.stderr, "names whoever reads it");
    } finally {
      await cleanup(repo, links);
    }
  },
});

// f6 -----------------------------------------------------------------------------------

const QUOTED_TEMPLATE = `Fix docs:

<!-- subagent-env-handshake v1 -->

parent_head: 0000000000000000000000000000000000000000
parent_branch: main
parent_cwd: /absolute/path/to/repo
parent_dirty_fingerprint: 000000000000
workspace_mode: shared
handshake_issued_at: 1970-01-01T00:00:00.0000000Z

<!-- /subagent-env-handshake -->
`;

Deno.test("a task quoting a block: the first block is the handshake, a diverged tree halts", async () => {
  const repo = await makeRepo();
  try {
    const prompt = await wrap(repo, QUOTED_TEMPLATE);
    assertEquals((await bin("verify", [], { cwd: repo, stdin: prompt })).code, 0);
    await Deno.writeTextFile(join(repo, "README.md"), "drift\n");
    const r = await bin("verify", [], { cwd: repo, stdin: prompt });
    assertEquals(r.code, 1, r.stdout);
    assertOk(r.stdout.startsWith("## Finding: environment-divergence (halting)\n"));
    assertIncludes(r.stderr, "1 later handshake block ignored");
  } finally {
    await cleanup(repo);
  }
});

Deno.test("re-wrapping a wrapped prompt puts the new block first and verify reads it", async () => {
  const repo = await makeRepo();
  try {
    const first = await wrap(repo);
    await commitAll(repo, "moved on");
    const again = await wrap(repo, first);
    assertOk(again.endsWith(first), "the old prompt follows unchanged");
    const r = await bin("verify", ["--json"], { cwd: repo, stdin: again });
    assertEquals(r.code, 0, r.stdout);
    assertEquals(JSON.parse(r.stdout).expected.parent_head, await git(repo, ["rev-parse", "HEAD"]));
  } finally {
    await cleanup(repo);
  }
});

// usage and formats -----------------------------------------------------------------------

Deno.test("wrap --count N without --json is a usage error; with --json each prompt stands alone", async () => {
  const repo = await makeRepo();
  try {
    const r = await bin("handshake", ["wrap", "--count", "2"], { cwd: repo, stdin: "task" });
    assertEquals(r.code, 2, r.stdout);
    assertEquals(r.stdout, "");
    assertIncludes(r.stderr, "--json");
    const j = await bin("handshake", ["wrap", "--count", "2", "--json"], {
      cwd: repo,
      stdin: "task",
    });
    assertEquals(j.code, 0, j.stderr);
    const prompts: string[] = JSON.parse(j.stdout).prompts;
    assertEquals(prompts.length, 2);
    for (const p of prompts) {
      assertEquals((await bin("verify", [], { cwd: repo, stdin: p })).code, 0);
    }
  } finally {
    await cleanup(repo);
  }
});

Deno.test("any unambiguous UTC time and upper-case hex are accepted; handshake still writes the seed's form", async () => {
  const repo = await makeRepo();
  try {
    const head = await git(repo, ["rev-parse", "HEAD"]);
    const dateIso = (await run("date", ["-u", "-Iseconds"])).stdout.trim();
    for (const time of [dateIso, "2026-12-01T02:04:34.5+00:00", "2026-12-01T02:04:34Z"]) {
      const args = ["--head", head.toUpperCase(), "--branch", "main", "--cwd", repo];
      const r = await bin(
        "verify",
        [...args, "--fingerprint", "E3B0C44298FC", "--issued-at", time],
        {
          cwd: repo,
        },
      );
      assertEquals(r.code, 0, `${time}: ${r.stdout}`);
      const block = bashBlock(head.toUpperCase(), "main", repo, "E3B0C44298FC")
        .replace("2026-12-01T00:00:00.0000000Z", time);
      assertEquals((await bin("verify", [], { cwd: repo, stdin: block })).code, 0, time);
    }
    const h = await bin("handshake", [
      "--head",
      head.toUpperCase(),
      "--branch",
      "main",
      "--cwd",
      repo,
      "--fingerprint",
      "E3B0C44298FC",
      "--issued-at",
      "2026-12-01T02:04:34+00:00",
    ]);
    assertEquals(h.code, 0, h.stderr);
    assertIncludes(h.stdout, `parent_head: ${head}\n`);
    assertIncludes(h.stdout, "parent_dirty_fingerprint: e3b0c44298fc\n");
    assertIncludes(h.stdout, "handshake_issued_at: 2026-12-01T02:04:34.0000000Z\n");
    const local = await bin("verify", [
      "--head",
      head,
      "--branch",
      "main",
      "--cwd",
      repo,
      "--fingerprint",
      "e3b0c44298fc",
      "--issued-at",
      "2026-12-01T02:04:34+01:00",
    ], { cwd: repo });
    assertEquals(local.code, 3, "a local time is not UTC");
  } finally {
    await cleanup(repo);
  }
});
