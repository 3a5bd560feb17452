/**
 * Seed 003 acceptance tests H and I for `coord`, and the sender's identity and hostile git
 * settings: an unauthorised sender learns nothing from artifact probes, coord changes nothing
 * it must not, no flag, variable or setting makes one lane another. (A–C:
 * `coord_acceptance_test.ts`.)
 * Black box: the real entry point under its binary's exact permission flags, on real
 * throwaway repositories with a main worktree (Primary) and linked worktrees W1, W2, W3 (see
 * `_coord_acceptance_fixture.ts`).
 *
 * Each test gets its own scenario; sub-cases share it through `t.step`. Every blindness
 * and artifact case asserts the denial AND an authorised positive next to it, so neither a
 * guard that is switched off nor an implementation that refuses everything passes.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { git, type Run, run } from "./_helpers.ts";
import { LANE_DIR, type Scenario } from "./_coord_acceptance_fixture.ts";
import {
  assertDenied,
  assertMessageUnseen,
  assertProbesRefused,
  coord,
  coordIn,
  expectId,
  handoff,
  handoffArgs,
  HEXISH,
  inbox,
  inboxLine,
  NO_SUCH_SHA,
  parallel,
  type Probe,
  read,
  short,
  show,
  WI,
  withScenario,
} from "./_coord_acceptance_run.ts";

// ---------------------------------------------------------------------------------------
// H. Sender artifact oracle

Deno.test("coord H: an unauthorised sender learns nothing from artifact probes, by handoff or by send", async (t) => {
  await withScenario({}, async (s) => {
    const { a, tagOnly } = s.sha;
    const h = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen");
    const before = await inbox(s, "Primary");

    await t.step(
      "the authorised owner's handoff of the same artifact works (control)",
      async () => {
        assertIncludes(await read(s, "Primary", h), a);
      },
    );

    await t.step(
      "existing path, missing path, missing ref, symbolic ref, exact, abbreviated and rev-expression probes all look like a missing commit",
      async () => {
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "exact SHA, existing path", sha: a, path: "proof/w1.md" },
          { label: "exact SHA, missing path", sha: a, path: "proof/does-not-exist.md" },
          { label: "exact SHA, existing directory", sha: a, path: "proof" },
          { label: "tag-only, existing path", sha: tagOnly, path: "proof/w1-tagonly.md" },
          { label: "tag-only, missing path", sha: tagOnly, path: "nope.md" },
          { label: "nonexistent ref", sha: "refs/heads/no-such-branch", path: "proof/w1.md" },
          { label: "nonexistent branch name", sha: "no-such-branch", path: "proof/w1.md" },
          { label: "symbolic ref w1", sha: "w1", path: "proof/w1.md" },
          {
            label: "symbolic ref to a tag",
            sha: `refs/tags/${s.tag}`,
            path: "proof/w1-tagonly.md",
          },
          { label: "abbreviated SHA", sha: short(a, 8), path: "proof/w1.md" },
          { label: "abbreviated SHA, missing path", sha: short(a, 8), path: "x.md" },
          { label: "rev expression HEAD~1", sha: "HEAD~1", path: "proof/w2.md" },
          { label: "rev expression main^{tree}", sha: "main^{tree}", path: "STATUS" },
          { label: "message search", sha: ":/W1 frozen", path: "proof/w1.md" },
          { label: "path-qualified rev", sha: `${a}:proof/w1.md`, path: "proof/w1.md" },
          { label: "SHA with a trailing newline", sha: `${a}\n`, path: "proof/w1.md" },
          { label: "SHA padded to 64 hex", sha: a + "0".repeat(24), path: "proof/w1.md" },
          { label: "reflog expression", sha: "HEAD@{1}", path: "proof/w2.md" },
        ]);
      },
    );

    await t.step(
      "a malformed path is answered the same for W1's commit and for a missing one",
      async () => {
        for (const path of ["../w1.md", "/etc/passwd", "proof/../../x"]) {
          const [foreign, missing] = await Promise.all([
            coord(s, "W2", handoffArgs("Primary", a, path, "p"), "p\n"),
            coord(s, "W2", handoffArgs("Primary", NO_SUCH_SHA, path, "p"), "p\n"),
          ]);
          assertOk(foreign.code !== 0, show(foreign));
          assertEquals(foreign, missing, `path ${path}`);
          assertOk(!HEXISH.test(foreign.stdout + foreign.stderr));
        }
      },
    );

    await t.step("the --json refusal is identical across probes too", async () => {
      const args = (
        sha: string,
        path: string,
      ) => [...handoffArgs("Primary", sha, path, "p"), "--json"];
      const [ref, p1, p2, p3] = await parallel([
        () => coord(s, "W2", args(NO_SUCH_SHA, "proof/w1.md"), "p\n"),
        () => coord(s, "W2", args(a, "proof/w1.md"), "p\n"),
        () => coord(s, "W2", args(a, "proof/none.md"), "p\n"),
        () => coord(s, "W2", args(short(a), "proof/w1.md"), "p\n"),
      ]);
      for (const r of [p1, p2, p3]) {
        assertEquals(r, ref);
        assertOk(!HEXISH.test((r as Run).stdout + (r as Run).stderr));
      }
    });

    await t.step(
      "via send: forwarding or replying to W1's unseen handoff is answered like a missing id",
      async () => {
        await assertMessageUnseen(s, "W2", h, true);
      },
    );

    await t.step("no probe created a message", async () => {
      assertEquals(await inbox(s, "Primary"), before);
    });
  });
});

// ---------------------------------------------------------------------------------------
// I. Side effects

/** Everything coord must not change: refs, worktrees, files, STATUS, the remote. */
async function worldSnapshot(s: Scenario): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  out.refs = await git(s.dir.Primary, ["for-each-ref", "--format=%(refname) %(objectname)"]);
  out.worktrees = await git(s.dir.Primary, ["worktree", "list", "--porcelain"]);
  out.stash = await git(s.dir.Primary, ["stash", "list"]);
  out.statusBlob = await git(s.dir.Primary, ["rev-parse", "main:STATUS"]);
  for (const lane of ["Primary", "W1", "W2", "W3"] as const) {
    out[`${lane} status`] = await git(s.dir[lane], ["status", "--porcelain", "--ignored"]);
    out[`${lane} HEAD`] = await git(s.dir[lane], ["rev-parse", "HEAD"]);
    out[`${lane} STATUS`] = await Deno.readTextFile(join(s.dir[lane], "STATUS"));
  }
  if (s.remote) out.remote = await git(s.remote, ["for-each-ref"]);
  out.files = (await listFiles(s.root, s.commonDir)).join("\n");
  return out;
}

/** Every file under root with size and mtime, except the coord store and git's index files. */
async function listFiles(root: string, commonDir: string): Promise<string[]> {
  const out: string[] = [];
  const skip = (p: string) =>
    p.startsWith(join(commonDir, "coord-lite")) || /[/\\]index$/.test(p) ||
    p.endsWith("trace.log");
  async function walk(dir: string): Promise<void> {
    for await (const e of Deno.readDir(dir)) {
      const p = join(dir, e.name);
      if (skip(p)) continue;
      if (e.isDirectory) await walk(p);
      else {
        const st = await Deno.lstat(p);
        out.push(`${p} ${st.size} ${st.mtime?.getTime()}`);
      }
    }
  }
  await walk(root);
  return out.sort();
}

/** Processes whose working directory is inside a directory (Linux /proc, read by a shell). */
async function processesInside(dir: string): Promise<string[]> {
  if (Deno.build.os !== "linux") return [];
  const script = 'for p in /proc/[0-9]*; do c=$(readlink "$p/cwd" 2>/dev/null) || continue; ' +
    'case "$c" in "$1"|"$1"/*) echo "$p $c";; esac; done';
  const r = await run("sh", ["-c", script, "sh", dir]);
  return r.stdout.split("\n").filter((l) => l !== "");
}

Deno.test("coord I: coord creates no ref or branch, fetches and pushes nothing, and changes no STATUS or worktree file", async () => {
  await withScenario({ remote: true }, async (s) => {
    // A git on PATH that logs every call coord makes, then runs the real git (coord turns
    // git's own trace variables off, so they cannot serve here).
    const trace = join(s.root, "trace.log");
    const shim = join(s.root, "git-shim");
    await Deno.mkdir(shim);
    const realGit = (await run("sh", ["-c", "command -v git"])).stdout.trim();
    await Deno.writeTextFile(
      join(shim, "git"),
      `#!/bin/sh\nprintf 'git %s\\n' "$*" >> "${trace}"\nexec "${realGit}" "$@"\n`,
    );
    await Deno.chmod(join(shim, "git"), 0o755);
    const env = { PATH: `${shim}:${Deno.env.get("PATH")}` };
    const before = await worldSnapshot(s);
    const { a } = s.sha;

    const id = expectId(
      await coord(s, "W1", ["send", WI, "--to", "Primary", "--subject", "s"], "b\n", env),
      "send",
    );
    const h = expectId(
      await coord(s, "W1", handoffArgs("Primary", a, "proof/w1.md"), "b\n", env),
      "handoff",
    );
    expectId(
      await coord(s, "W1", handoffArgs("Primary", "HEAD", "proof/w1.md"), "b\n", env),
      "HEAD",
    );
    const runs = await parallel([
      () => coord(s, "Primary", ["inbox", WI], undefined, env),
      () => coord(s, "Primary", ["inbox", WI, "--json"], undefined, env),
      () => coord(s, "Primary", ["read", id], undefined, env),
      () => coord(s, "Primary", ["read", h, "--json"], undefined, env),
      () => coord(s, "Primary", ["status", WI], undefined, env),
      () => coord(s, "Primary", ["status", "--json"], undefined, env),
      () => coord(s, "W2", handoffArgs("Primary", a, "proof/w1.md"), "b\n", env),
      () => coord(s, "W2", ["send", WI, "--to", "W1", "--subject", "x"], "b\n", env),
    ]);
    for (const r of runs.slice(0, 6)) assertEquals(r.code, 0, show(r));
    assertEquals((await coord(s, "Primary", ["ack", h], undefined, env)).code, 0);

    const after = await worldSnapshot(s);
    for (const key of Object.keys(before)) {
      assertEquals(after[key], before[key], `coord changed ${key}`);
    }
    assertExcludes(after.refs ?? "", "coord");
    assertOk((await Deno.stat(join(s.commonDir, "coord-lite", WI, "msgs"))).isDirectory);

    assertEquals(await processesInside(s.root), [], "coord left a background process behind");
    const traced = await Deno.readTextFile(trace);
    assertIncludes(traced, " rev-parse "); // the log saw coord's git calls
    for (const line of traced.split("\n").filter(Boolean)) {
      const words = line.split(" ");
      for (const cmd of ["fetch", "push", "ls-remote", "clone", "remote", "update-ref", "gc"]) {
        assertOk(!words.includes(cmd), `coord ran git ${cmd}: ${line}`);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------
// Identity

Deno.test("coord identity: the sender is the lane of the current worktree and cannot be spoofed", async (t) => {
  await withScenario({}, async (s) => {
    await t.step("a subdirectory of W1 is W1", async () => {
      const id = expectId(
        await coordIn(
          join(s.dir.W1, "proof"),
          ["send", WI, "--to", "Primary", "--subject", "from subdir"],
          "subdir\n",
        ),
        "send from W1/proof",
        s,
        "W1",
      );
      const line = await inboxLine(s, "Primary", id);
      assertIncludes(line, "W1");
    });

    await t.step("no flag names another sender", async () => {
      for (const flag of ["--from", "--sender", "--as", "--lane"]) {
        const r = await coord(
          s,
          "W2",
          ["send", WI, "--to", "Primary", "--subject", "spoof", flag, "W1"],
          "spoof\n",
        );
        assertEquals(r.code, 2, `${flag} must be a usage error\n${show(r)}`);
        assertEquals(r.stdout, "");
      }
    });

    await t.step("no environment variable names another sender", async () => {
      const env: Record<string, string> = {};
      for (
        const v of ["COORD_LANE", "COORD_SENDER", "COORD_FROM", "COORD_AS", "TETHER_LANE", "LANE"]
      ) {
        env[v] = "Primary";
      }
      env.PWD = s.dir.Primary;
      const r = await coord(s, "W2", ["send", WI, "--to", "W1", "--subject", "spoof"], "x\n", env);
      assertDenied(r, "W2 posing as Primary by environment, to W1");
      const id = expectId(
        await coord(s, "W2", ["send", WI, "--to", "Primary", "--subject", "env spoof"], "x\n", env),
        "W2 send with spoofing environment",
        s,
        "W2",
      );
      const line = await inboxLine(s, "Primary", id);
      assertIncludes(line, "W2");
      assertEquals(await inbox(s, "W1"), []);
    });

    await t.step(
      "GIT_DIR and GIT_WORK_TREE pointing at Primary do not make W2 Primary",
      async () => {
        const env = { GIT_DIR: s.commonDir, GIT_WORK_TREE: s.dir.Primary };
        const r = await coord(
          s,
          "W2",
          ["send", WI, "--to", "W1", "--subject", "spoof"],
          "x\n",
          env,
        );
        assertDenied(r, "W2 posing as Primary through GIT_DIR/GIT_WORK_TREE, to W1");
        const probe = await coord(
          s,
          "W2",
          handoffArgs("Primary", s.sha.a, "proof/w1.md"),
          "x\n",
          env,
        );
        assertDenied(probe, "W2 probing W1's commit through GIT_DIR/GIT_WORK_TREE");
        assertEquals(await inbox(s, "W1"), []);
      },
    );

    await t.step("a worktree that is no lane is refused", async () => {
      const w4 = join(s.dir.Primary, LANE_DIR, "W4");
      await git(s.dir.Primary, ["worktree", "add", "-q", "-b", "w4", w4, "main"]);
      const before = await inbox(s, "Primary");
      const sent = await coordIn(w4, ["send", WI, "--to", "Primary", "--subject", "hi"], "hi\n");
      assertDenied(sent, "send from a worktree that is no lane");
      assertOk((await coordIn(w4, ["inbox", WI])).code !== 0, "inbox from a non-lane worktree");
      assertEquals(await inbox(s, "Primary"), before);
      const outside = await coordIn(s.root, ["inbox", WI]);
      assertOk(outside.code !== 0, `coord outside any repository must fail\n${show(outside)}`);
    });

    await t.step("hostile work item and message ids are usage errors", async () => {
      for (const wi of ["../x", "", "E001/../../x", "E".repeat(300)]) {
        const r = await coord(s, "W1", ["send", wi, "--to", "Primary", "--subject", "x"], "x\n");
        assertEquals(r.code, 2, `work item ${JSON.stringify(wi)}\n${show(r)}`);
      }
      const r = await coord(s, "Primary", ["read", "../../../etc/passwd"]);
      assertEquals(r.code, 2, show(r));
    });
  });
});

// ---------------------------------------------------------------------------------------
// Hostile git environment: settings that rewrite what git reports about history

Deno.test("coord hostile git environment: log encoding, grafts, shallow files and forged reflog entries cannot hand W1's work to W2", async (t) => {
  await withScenario({}, async (s) => {
    const { a, primaryOnA, primaryMerge, w2Merge } = s.sha;
    const foreign: Probe[] = [
      { label: "W1's frozen commit", sha: a, path: "proof/w1.md" },
      { label: "Primary's commit on W1's", sha: primaryOnA, path: "proof/w1.md" },
      { label: "Primary's commit on W1's, missing path", sha: primaryOnA, path: "proof/no.md" },
      { label: "W2's merge of W1's commit", sha: w2Merge, path: "proof/w1.md" },
    ];
    const grafts = [`${primaryOnA} ${s.sha.base}`, `${w2Merge} ${s.sha.b}`].join("\n") + "\n";
    const cut = [primaryOnA, w2Merge].join("\n") + "\n";

    await t.step(
      "i18n.logOutputEncoding from the environment does not erase reflog ownership",
      async () => {
        for (
          const env of [
            {
              GIT_CONFIG_COUNT: "1",
              GIT_CONFIG_KEY_0: "i18n.logOutputEncoding",
              GIT_CONFIG_VALUE_0: "UTF-16",
            },
            { GIT_CONFIG_PARAMETERS: "'i18n.logoutputencoding'='UTF-16'" },
          ]
        ) {
          await assertProbesRefused(s, "W2", "Primary", foreign, env);
        }
      },
    );

    await t.step("GIT_GRAFT_FILE cannot cut W1's commit out of a history", async () => {
      const file = join(s.root, "grafts");
      await Deno.writeTextFile(file, grafts);
      await assertProbesRefused(s, "W2", "Primary", foreign, { GIT_GRAFT_FILE: file });
    });

    await t.step("GIT_SHALLOW_FILE cannot cut W1's commit out of a history", async () => {
      const file = join(s.root, "shallow");
      await Deno.writeTextFile(file, cut);
      await assertProbesRefused(s, "W2", "Primary", foreign, { GIT_SHALLOW_FILE: file });
    });

    await t.step(
      "a grafts file in the repository cannot cut W1's commit out of a history",
      async () => {
        const file = join(s.commonDir, "info", "grafts");
        await Deno.mkdir(join(s.commonDir, "info"), { recursive: true });
        await Deno.writeTextFile(file, grafts);
        try {
          await assertProbesRefused(s, "W2", "Primary", foreign);
        } finally {
          await Deno.remove(file);
        }
      },
    );

    await t.step(
      "a shallow file in the repository cannot cut W1's commit out of a history",
      async () => {
        const file = join(s.commonDir, "shallow");
        await Deno.writeTextFile(file, cut);
        try {
          await assertProbesRefused(s, "W2", "Primary", foreign);
        } finally {
          await Deno.remove(file);
        }
      },
    );

    await t.step(
      "without those, the same probes are refused and W1 still hands off its own commit",
      async () => {
        await assertProbesRefused(s, "W2", "Primary", foreign);
        const own = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen");
        assertIncludes(await read(s, "Primary", own), a);
        await handoff(s, "Primary", "W1", primaryMerge, "proof/w1.md", "Primary merge");
      },
    );

    await t.step(
      "a backdated forged creation entry in W2's reflog does not give W2 W1's commit",
      async () => {
        const forged = await run("git", ["checkout", "-q", "--detach", s.sha.a0], {
          cwd: s.dir.W2,
          env: { GIT_REFLOG_ACTION: "commit: mine", GIT_COMMITTER_DATE: "@1000000000 +0000" },
        });
        assertEquals(forged.code, 0, forged.stderr);
        try {
          await assertProbesRefused(s, "W2", "Primary", [
            {
              label: "W1's first commit, claimed by a forged entry",
              sha: s.sha.a0,
              path: "proof/w1.md",
            },
            { label: "HEAD at it", sha: "HEAD", path: "proof/w1.md" },
          ]);
        } finally {
          await git(s.dir.W2, ["checkout", "-q", "w2"]);
        }
      },
    );
  });
});
