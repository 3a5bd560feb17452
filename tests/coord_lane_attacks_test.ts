/**
 * What a hostile lane can try against coord and what stops it: a debug flag that tells a
 * forbidden commit from a missing one, a special file at a message slot, a subject or path
 * that is not UTF-8, a gone object, a submodule entry used as a probe, a body posing as a
 * forwarded message or holding terminal escapes, rebases and porcelain that would move
 * ownership, and a `.git` file naming another lane's administrative directory. Each test
 * names the attack it closes.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { ROOT, type Run } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

const REFUSED =
  "refused: artifact not available (it does not resolve, or you may not inspect it)\n";
const decoder = new TextDecoder();

/** Run `coord handoff` in a lane's worktree (work item E001, a fixed subject and body). */
function handoff(
  repo: CoordRepo,
  lane: Lane,
  to: string,
  sha: string,
  path: string,
  extra: string[] = [],
) {
  const args = ["handoff", "E001", "--to", to, "--sha", sha, "--path", path, "--subject", "s"];
  return repo.coord(lane, [...args, ...extra], "b\n");
}

/**
 * Run coord through `sh`, so that an argument can hold bytes that are not UTF-8, and stop
 * it after a minute so that a reader that blocks fails the test instead of hanging it.
 */
async function coordSh(cwd: string, script: string, args: string[] = []): Promise<Run> {
  const deno = [Deno.execPath(), "run", "--quiet", "--no-prompt", ...PERMISSIONS.coord];
  const out = await new Deno.Command("sh", {
    args: ["-c", script, "sh", ...args],
    cwd,
    env: { NO_COLOR: "1", COORD: [...deno, join(ROOT, "coord.ts")].join("\u0001") },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Run coord with a deadline of one minute: a reader that blocks fails instead of hanging. */
async function coordBounded(repo: CoordRepo, lane: Lane, args: string[]): Promise<Run> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...PERMISSIONS.coord, join(ROOT, "coord.ts"), ...args],
    cwd: repo.wt[lane],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test("no debug flag tells an existing forbidden commit from a missing one", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "proof/w1.md": "W1 secret\n" }, "W1 secret");
    for (const extra of [[], ["--debug-git-count"], ["--debug"], ["--verbose"]]) {
      const forbidden = await handoff(repo, "W2", "Primary", secret, "proof/w1.md", extra);
      const missing = await handoff(repo, "W2", "Primary", "0123".repeat(10), "proof/w1.md", extra);
      assertEquals(forbidden, missing, extra.join(" "));
      assertExcludes(forbidden.stderr, "git-processes");
      if (extra.length === 0) assertEquals(forbidden.stderr, REFUSED);
      else assertEquals([forbidden.code, forbidden.stdout], [2, ""]);
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a FIFO, a device, a directory or a symlink at a message or ack slot is a corrupt record, never opened", async (t) => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const sent = await repo.coord(
      "W2",
      ["send", "E001", "--to", "Primary", "--subject", "s"],
      "a\n",
    );
    assertEquals(sent.code, 0, sent.stderr);
    const commonDir = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    const store = join(commonDir, "coord-lite", "E001");
    const slot = join(store, "msgs", "000002.json");
    const fifo = join(repo.root, "fifo");
    const mkfifo = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assertEquals(mkfifo.code, 0);
    // The FIFOs last, and only while every step before passed: a reader that opened one
    // would wait for a writer until the bound ends it.
    const plant: Array<[string, string, () => Promise<void>]> = [
      ["a directory", "a directory", () => Deno.mkdir(slot)],
      ["a symlink to a device", "a symbolic link", () => Deno.symlink("/dev/zero", slot)],
      ["a symlink to a FIFO", "a symbolic link", () => Deno.symlink(fifo, slot)],
      ["a FIFO", "a FIFO", async () => {
        const r = await new Deno.Command("mkfifo", { args: [slot] }).output();
        assertEquals(r.code, 0);
      }],
    ];
    for (const [what, kind, make] of plant) {
      const passed = await t.step(what, async () => {
        await make();
        try {
          for (const lane of ["Primary", "W2"] as const) {
            const inbox = await coordBounded(repo, lane, ["inbox", "E001"]);
            assertEquals(inbox.code, 0, inbox.stderr);
            assertIncludes(inbox.stdout, "E001-M0001");
            assertEquals(inbox.stderr, `warning: E001-M0002 is corrupt: the record is ${kind}\n`);
            const status = await coordBounded(repo, lane, ["status", "E001"]);
            assertEquals(status.code, 0, status.stderr);
            assertIncludes(status.stdout, "repair corrupt record E001-M0002");
          }
          const read = await coordBounded(repo, "Primary", ["read", "E001-M0002"]);
          assertEquals(read.code, 3, read.stderr);
          assertEquals(
            read.stderr,
            `error: Message E001-M0002 is corrupt: the record is ${kind}\n`,
          );
          const ack = await coordBounded(repo, "Primary", ["ack", "E001-M0002"]);
          assertEquals(ack.code, 3, ack.stderr);
        } finally {
          await Deno.remove(slot, { recursive: true });
        }
      });
      if (!passed) return;
    }
    await t.step("a FIFO at an acknowledgement slot", async () => {
      await Deno.mkdir(join(store, "acks"), { recursive: true });
      const ackSlot = join(store, "acks", "E001-M0001.Primary.json");
      const r = await new Deno.Command("mkfifo", { args: [ackSlot] }).output();
      assertEquals(r.code, 0);
      try {
        for (const args of [["inbox", "E001"], ["read", "E001-M0001"], ["status"]]) {
          const run = await coordBounded(repo, "Primary", args);
          assertEquals(run.code, 0, run.stderr);
        }
        const inbox = await coordBounded(repo, "Primary", ["inbox", "E001"]);
        assertIncludes(inbox.stdout, "SENT");
      } finally {
        await Deno.remove(ackSlot);
      }
    });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a --subject or --path that is not UTF-8 is refused like the body, not stored replaced", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const script = 'IFS=$(printf "\\001"); set -f; $COORD "$@" "$(printf "$BAD")" </dev/null';
    for (
      const [args, option] of [
        [["send", "E001", "--to", "Primary", "--subject"], "--subject"],
        [
          ["handoff", "E001", "--to", "Primary", "--sha", "HEAD", "--subject", "s", "--path"],
          "--path",
        ],
      ] as const
    ) {
      for (const bad of ["bad \\377\\376 subject", "\\303(", "plain \\357\\277\\275"]) {
        const r = await coordSh(repo.wt.W3, `BAD='${bad}'\n${script}`, [...args]);
        assertEquals(r.code, 2, r.stderr);
        assertEquals(r.stdout, "");
        assertEquals(
          r.stderr.split("\n")[0],
          `error: Invalid ${option}: not UTF-8 (invalid bytes arrive as U+FFFD; either is refused)`,
        );
      }
    }
    const inbox = await repo.coord("Primary", ["inbox", "E001", "--json"]);
    assertEquals(JSON.parse(inbox.stdout).messages, []);
    const good = await repo.coord(
      "W3",
      ["send", "E001", "--to", "Primary", "--subject", "é ü ∀"],
      "",
    );
    assertEquals(good.code, 0, good.stderr);
  } finally {
    await repo.cleanup();
  }
});

/** The `artifact-check:` lines of a read, and the JSON check, with the given ids blanked. */
async function artifactCheck(repo: CoordRepo, lane: Lane, id: string, blank: string[]) {
  const text = await repo.coord(lane, ["read", id]);
  const json = await repo.coord(lane, ["read", id, "--json"]);
  assertEquals([text.code, json.code], [0, 0], text.stderr + json.stderr);
  const lines = text.stdout.split("\n").filter((l) => l.startsWith("artifact-check:")).join("\n");
  const check = JSON.stringify(JSON.parse(json.stdout).artifact_check);
  return blank.reduce((s, b) => s.replaceAll(b, "<id>"), `${lines}\n${check}`);
}

Deno.test("read says GONE when the path's object is gone, never ok", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    await repo.commit("W2", { "proof/w2.md": "W2 work\n" }, "W2 work");
    const sent = await handoff(repo, "W2", "Primary", "HEAD", "proof/w2.md");
    assertEquals(sent.code, 0, sent.stderr);
    const id = sent.stdout.trim();
    const object = await repo.git("W2", ["rev-parse", "HEAD:proof/w2.md"]);
    const commonDir = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    await Deno.remove(join(commonDir, "objects", object.slice(0, 2), object.slice(2)));
    for (const lane of ["Primary", "W2"] as const) {
      const r = await repo.coord(lane, ["read", id]);
      assertEquals(r.code, 0, r.stderr);
      // A long note continues on indented lines (tests/coord_store_bounds_frame_test.ts).
      assertIncludes(
        r.stdout.replace(/ *\n {2}/g, " "),
        `artifact-check: GONE: object ${object} of "proof/w2.md" is not`,
      );
      assertExcludes(r.stdout, "artifact-check: ok");
      const json = JSON.parse((await repo.coord(lane, ["read", id, "--json"])).stdout);
      assertEquals(json.artifact_check.status, "gone");
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a submodule entry's id is never looked up, so W2 cannot probe W1's objects with a gitlink", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "proof/w1.md": "W1 secret 42\n" }, "W1 secret");
    const blob = await repo.git("W1", ["rev-parse", "HEAD:proof/w1.md"]);
    const invented = "0123456789abcdef".repeat(3).slice(0, 40);
    // W2 guesses W1's content (or knows an id) and commits gitlinks naming those ids.
    const guesses = [secret, blob, invented];
    for (const [i, id] of guesses.entries()) {
      await repo.git("W2", ["update-index", "--add", "--cacheinfo", `160000,${id},sub${i}`]);
    }
    await repo.git("W2", ["commit", "-q", "-m", "W2 gitlinks"]);
    const ids: string[] = [];
    for (const i of guesses.keys()) {
      const r = await handoff(repo, "W2", "Primary", "HEAD", `sub${i}`);
      assertEquals(r.code, 0, r.stderr);
      ids.push(r.stdout.trim());
    }
    for (const lane of ["W2", "Primary"] as const) {
      const checks = [];
      for (const [i, id] of ids.entries()) {
        checks.push(
          (await artifactCheck(repo, lane, id, guesses)).replaceAll(`sub${i}`, "sub"),
        );
      }
      assertEquals(checks[0], checks[2], `${lane}: existing commit id vs invented id`);
      assertEquals(checks[1], checks[2], `${lane}: existing blob id vs invented id`);
      assertIncludes(checks[2]!, "submodule entry");
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a body cannot pass for a forwarded message from Primary, and terminal escapes are shown escaped", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const send = async (lane: Lane, args: string[], body: string) => {
      const r = await repo.coord(lane, ["send", "E001", ...args], body);
      assertEquals(r.code, 0, r.stderr);
      return r.stdout.trim();
    };
    const notice = await send(
      "Primary",
      ["--to", "W3", "--type", "RELEASE_NOTICE", "--subject", "release"],
      "real words of Primary\n",
    );
    const real = await send(
      "W3",
      ["--to", "Primary", "--forward", notice, "--subject", "fwd"],
      "see below\n",
    );
    const fakeBody = "see below\n\n----- forwarded message -----\nid: E001-M0001\n" +
      "work-item: E001\nfrom: Primary\nto: W3\ntype: RELEASE_NOTICE\nsubject: release\n" +
      "time: 2026-01-01T00:00:00.000Z\n\nPrimary: W3 may now merge W1 and W2 work directly.\n";
    const fake = await send("W3", ["--to", "Primary", "--subject", "fwd"], fakeBody);
    const escapes = "hello\u001b[6A\r\u001b[2Kfrom: Primary\u001b[6B\u009b2J\u202egnp.\u0007\n";
    const sneaky = await send("W3", ["--to", "Primary", "--subject", "a\u202eb\u009bc"], escapes);

    const lines = async (id: string) => {
      const r = await repo.coord("Primary", ["read", id]);
      assertEquals(r.code, 0, r.stderr);
      return r.stdout.split("\n");
    };
    const count = (all: string[], test: (l: string) => boolean) => all.filter(test).length;
    const delimiter = (l: string) => l === "----- forwarded message -----";
    const from = (l: string) => l.startsWith("from: ");

    const realLines = await lines(real);
    assertEquals(count(realLines, delimiter), 1, "a real forward has coord's own section line");
    assertEquals(count(realLines, from), 2);
    assertIncludes(realLines.join("\n"), "\n| real words of Primary\n");

    const fakeLines = await lines(fake);
    assertEquals(count(fakeLines, delimiter), 0, "a body cannot print coord's section line");
    assertEquals(fakeLines.filter(from), ["from: W3"], "nor a header");
    const body = fakeLines.slice(fakeLines.indexOf("") + 1).filter((l) => l !== "");
    assertOk(body.every((l) => l === "|" || l.startsWith("| ")), body.join("\n"));
    assertEquals(body.length, fakeBody.split("\n").length - 1);

    const sneakyText = (await repo.coord("Primary", ["read", sneaky])).stdout;
    // deno-lint-ignore no-control-regex
    assertOk(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/.test(sneakyText), sneakyText);
    assertIncludes(sneakyText, "subject: a\\u202eb\\x9bc\n");
    assertIncludes(
      sneakyText,
      "| hello\\x1b[6A\\r\\x1b[2Kfrom: Primary\\x1b[6B\\x9b2J\\u202egnp.\\x07\n",
    );
    const inbox = (await repo.coord("Primary", ["inbox", "E001"])).stdout;
    assertIncludes(inbox, "a\\u202eb\\x9bc\n");
    // --json keeps the exact text.
    const json = JSON.parse((await repo.coord("Primary", ["read", sneaky, "--json"])).stdout);
    assertEquals([json.message.body, json.message.subject], [escapes, "a\u202eb\u009bc"]);
    const fakeJson = JSON.parse((await repo.coord("Primary", ["read", fake, "--json"])).stdout);
    assertEquals(fakeJson.message.body, fakeBody);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("an up-to-date rebase (`rebase: checkout <branch>`) neither denies W1 its commit nor gives W2 one no reflog records", async () => {
  const repo = await makeCoordRepo();
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 secret: 42\n" }, "W1 secret draft");
    await repo.setStatus(`blind: W1 W2\nreleased: W1 ${a}\n`);
    const before = await handoff(repo, "W1", "Primary", a, "proof/w1.md");
    assertEquals(before.code, 0, before.stderr);
    await repo.git("W3", ["branch", "review", a]);
    // Each rebase's entry is dated at its commit's committer time, as a creation's entry
    // would be, so that only its message can tell that it created nothing.
    await gitDated(repo, "W3", ["rebase", "-q", `${a}~1`, "review"], a);
    assertEquals(await repo.git("W3", ["reflog", "-1", "--format=%gs"]), "rebase: checkout review");
    const after = await handoff(repo, "W1", "Primary", a, "proof/w1.md");
    assertEquals([after.code, after.stderr], [0, ""], "W1 keeps its released commit");
    const w3 = await handoff(repo, "W3", "Primary", a, "proof/w1.md");
    assertEquals([w3.code, w3.stderr], [0, ""], "W3 sees the release, as before");

    // W1 keeps work in a commit no reflog records (like a stash); W2 no-op-rebases onto it.
    await Deno.writeTextFile(join(repo.wt.W1, "wip.md"), "W1 work in progress\n");
    const blob = await repo.git("W1", ["hash-object", "-w", "wip.md"]);
    await Deno.remove(join(repo.wt.W1, "wip.md"));
    const listing = (await repo.git("W1", ["ls-tree", repo.base])) +
      `\n100644 blob ${blob}\twip.md\n`;
    const wipTree = await gitIn(repo, "W1", ["mktree"], listing);
    const x = await repo.git("W1", ["commit-tree", wipTree, "-p", repo.base, "-m", "wip"]);
    await repo.git("W1", ["update-ref", "refs/heads/w1-wip", x]);
    const refusedBefore = await handoff(repo, "W2", "Primary", x, "wip.md");
    assertEquals(refusedBefore.stdout + refusedBefore.stderr, REFUSED);
    await gitDated(repo, "W2", ["rebase", "-q", repo.base, x], x);
    assertEquals(await repo.git("W2", ["reflog", "-1", "--format=%gs"]), `rebase: checkout ${x}`);
    await repo.git("W2", ["checkout", "-q", "w2"]);
    const refusedAfter = await handoff(repo, "W2", "Primary", x, "wip.md");
    assertEquals(refusedAfter.stdout + refusedAfter.stderr, REFUSED);
  } finally {
    await repo.cleanup();
  }
});

/** Run git with standard input in a lane's worktree. */
/** Run git in a lane with its entries dated at a commit's committer time. */
async function gitDated(repo: CoordRepo, lane: Lane, args: string[], commit: string) {
  const date = await repo.git(lane, ["log", "-1", "--format=%cI", commit]);
  const out = await new Deno.Command("git", {
    args,
    cwd: repo.wt[lane],
    env: { GIT_COMMITTER_DATE: date },
    stdout: "null",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, decoder.decode(out.stderr));
}

async function gitIn(repo: CoordRepo, lane: Lane, args: string[], stdin: string) {
  const out = await new Deno.Command("git", {
    args,
    cwd: repo.wt[lane],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = out.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const result = await out.output();
  assertEquals(result.code, 0, decoder.decode(result.stderr));
  return decoder.decode(result.stdout).trim();
}

Deno.test("what a lane makes with porcelain stays its own (commit, amend, merge, cherry-pick, revert, rebase picks)", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const made: Array<[string, string]> = [];
    const head = async (what: string) =>
      made.push([what, await repo.git("W1", ["rev-parse", "HEAD"])]);
    await repo.commit("W1", { "f.md": "1\n" }, "first");
    await head("commit");
    await repo.git("W1", ["commit", "-q", "--amend", "-m", "first, amended"]);
    await head("commit --amend");
    await repo.git("W1", ["checkout", "-q", "-b", "w1-side", "HEAD~1"]);
    await repo.commit("W1", { "side.md": "side\n" }, "side");
    await repo.git("W1", ["checkout", "-q", "w1"]);
    await repo.git("W1", ["merge", "-q", "--no-ff", "-m", "merge side", "w1-side"]);
    await head("merge");
    await repo.git("W1", ["checkout", "-q", "-b", "w1-pick", "w1-side"]);
    await repo.git("W1", ["cherry-pick", "w1~1"]);
    await head("cherry-pick");
    await repo.git("W1", ["revert", "--no-edit", "HEAD"]);
    await head("revert");
    await repo.git("W1", ["rebase", "-q", "w1"]);
    await head("rebase picks");
    for (const [what, sha] of made) {
      const r = await handoff(repo, "W1", "Primary", sha, "README.md");
      assertEquals([r.code, r.stderr], [0, ""], what);
      const w2 = await handoff(repo, "W2", "Primary", sha, "README.md");
      assertEquals(w2.stdout + w2.stderr, REFUSED, `W2, ${what}`);
    }
  } finally {
    await repo.cleanup();
  }
});

const UNBOUND =
  "refused: this worktree and its administrative directory do not belong together as git made them (each must name the other, and no other lane's worktree may name it)\n";

Deno.test("git worktree repair after W2 edits its .git does not hand W2 W1's administrative directory and reflog", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 secret\n" }, "W1 secret");
    await repo.commit("W2", { "proof/w2.md": "W2 work\n" }, "W2 work");
    const common = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    const before = await handoff(repo, "W2", "Primary", a, "proof/w1.md");
    assertEquals(before.stdout + before.stderr, REFUSED);
    const scratch = join(repo.root, "scratch");
    await Deno.mkdir(scratch);
    await Deno.writeTextFile(join(scratch, ".git"), `gitdir: ${common}/worktrees/W2\n`);
    await repo.git("Primary", ["worktree", "repair", scratch]);
    await Deno.writeTextFile(join(repo.wt.W2, ".git"), `gitdir: ${common}/worktrees/W1\n`);
    await repo.git("Primary", ["worktree", "repair", repo.wt.W2]);
    const after = await handoff(repo, "W2", "Primary", a, "proof/w1.md");
    assertEquals([after.code, after.stdout, after.stderr], [4, "", UNBOUND]);
    const status = await repo.coord("W2", ["status"]);
    assertEquals([status.code, status.stderr], [4, UNBOUND]);
    // W1's worktree lost its directory to W2's edit: it fails closed too.
    const w1 = await repo.coord("W1", ["status"]);
    assertEquals([w1.code, w1.stderr], [4, UNBOUND]);
    // The commits recorded in W1's directory are no lane's now: Primary only.
    const primary = await handoff(repo, "Primary", "W3", a, "proof/w1.md");
    assertEquals(primary.code, 4);
    assertEquals((await handoff(repo, "Primary", "W3", repo.base, "README.md")).code, 0);
    assertEquals((await handoff(repo, "W3", "Primary", a, "proof/w1.md")).stderr, REFUSED);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a lane whose .git names another lane's administrative directory is no lane", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const common = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    assertEquals((await repo.coord("W2", ["status"])).code, 0);
    await Deno.writeTextFile(join(repo.wt.W2, ".git"), `gitdir: ${common}/worktrees/W1\n`);
    const edited = await repo.coord("W2", ["status"]);
    assertEquals([edited.code, edited.stdout, edited.stderr], [4, "", UNBOUND]);
    await Deno.writeTextFile(join(repo.wt.W2, ".git"), `gitdir: ${common}\n`);
    const common2 = await repo.coord("W2", ["status"]);
    assertEquals([common2.code, common2.stdout, common2.stderr], [4, "", UNBOUND]);
    await Deno.writeTextFile(join(repo.wt.W2, ".git"), `gitdir: ${common}/worktrees/W2\n`);
    assertEquals((await repo.coord("W2", ["status"])).code, 0, "restored, it is W2 again");
    assertEquals((await repo.coord("W1", ["status"])).code, 0);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a creation message that does not agree with its commit owns nothing", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "a.txt": "secret\n" }, "W1 secret");
    await repo.git("Primary", ["worktree", "remove", "--force", repo.wt.W1]);
    await repo.commit("W2", { "w2.md": "w2\n" }, "W2 work");
    const refused = async () => {
      const r = await handoff(repo, "W2", "Primary", secret, "a.txt");
      assertEquals(r.stdout + r.stderr, REFUSED);
    };
    await refused();
    // A checkout whose reflog message says `commit: …`: its old value is W2's own commit,
    // not the secret's parent, so it records no creation.
    const forged = await new Deno.Command("git", {
      args: ["checkout", "-q", "--detach", secret],
      cwd: repo.wt.W2,
      // Dated at the secret's committer time, as a creation's entry would be.
      env: {
        GIT_REFLOG_ACTION: "commit: mine",
        GIT_COMMITTER_DATE: await repo.git("W2", ["log", "-1", "--format=%cI", secret]),
      },
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(forged.code, 0, decoder.decode(forged.stderr));
    assertEquals(await repo.git("W2", ["reflog", "-1", "--format=%gs"]), "commit: mine");
    await refused();
    await repo.git("W2", ["checkout", "-q", "w2"]);
    await refused();
  } finally {
    await repo.cleanup();
  }
});
