/**
 * Seed 003 acceptance tests A–I for `coord`, black box: the real entry point under its
 * binary's exact permission flags, on real throwaway repositories with a main worktree
 * (Primary) and linked worktrees W1, W2, W3 (see `_coord_acceptance_fixture.ts`).
 *
 * Each test builds its own scenario; sub-cases share it through `t.step`. Every blindness
 * and artifact case asserts the denial AND an authorised positive next to it, so neither a
 * guard that is switched off nor an implementation that refuses everything passes.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, type Run, run, writeFiles } from "./_helpers.ts";
import {
  buildScenario,
  commitStatus,
  LANE_DIR,
  type LaneName,
  type Policy,
  removeScenario,
  type Scenario,
  SEALED,
} from "./_coord_acceptance_fixture.ts";

/** The one refusal for every unauthorised, malformed, abbreviated, symbolic or missing artifact. */
const REFUSAL = "refused: artifact not available (it does not resolve, or you may not inspect it)";
/** The one answer for a message id that does not exist or that the caller may not see (docs/coord.md). */
const MESSAGE_REFUSAL =
  "refused: message not available (it does not exist, or you may not read it)";
/** The exit code every refusal shares (docs/coord.md). */
const EXIT_REFUSED = 4;
const WI = "E001";
const ID_RE = /^E001-M\d{4,}$/;
/** A well-formed message id that no scenario ever reaches. */
const MISSING_ID = "E001-M9999";
/** A well-formed full SHA-1 that names no object. */
const NO_SUCH_SHA = "0123456789abcdef0123456789abcdef01234567";
/** Anything that looks like an object id. */
const HEXISH = /[0-9a-f]{7,}/i;

// ---------------------------------------------------------------------------------------
// Running coord

function show(r: Run): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

/** Run coord as a lane (its worktree is the current directory). */
function coord(
  s: Scenario,
  lane: LaneName,
  args: string[],
  body?: string,
  env?: Record<string, string>,
): Promise<Run> {
  return coordIn(s.dir[lane], args, body, env);
}

/** Run coord in any directory. */
function coordIn(
  cwd: string,
  args: string[],
  body?: string,
  env?: Record<string, string>,
): Promise<Run> {
  return bin("coord", args, {
    cwd,
    ...(body === undefined ? {} : { stdin: body }),
    ...(env === undefined ? {} : { env }),
  });
}

/** Run tasks with bounded concurrency (each coord run is a Deno start-up). */
async function parallel<T>(tasks: Array<() => Promise<T>>, limit = 4): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await (tasks[i] as () => Promise<T>)();
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return out;
}

/** Who sent each message the tests created (inboxes may or may not list sent messages). */
const SENDERS = new Map<string, LaneName>();

function expectId(r: Run, what: string, s?: Scenario, from?: LaneName): string {
  assertEquals(r.code, 0, `${what} must succeed\n${show(r)}`);
  const id = r.stdout.trim();
  assertOk(ID_RE.test(id), `${what} must print the new message id, got\n${show(r)}`);
  if (s !== undefined && from !== undefined) SENDERS.set(`${s.root}\n${id}`, from);
  return id;
}

/** `send` that must succeed; returns the new id. */
async function send(
  s: Scenario,
  from: LaneName,
  to: string,
  subject: string,
  body: string,
  extra: string[] = [],
): Promise<string> {
  const r = await coord(s, from, ["send", WI, "--to", to, "--subject", subject, ...extra], body);
  return expectId(r, `${from} send to ${to} ${extra.join(" ")}`, s, from);
}

function handoffArgs(to: string, sha: string, path: string, subject = "handoff"): string[] {
  return ["handoff", WI, "--to", to, "--sha", sha, "--path", path, "--subject", subject];
}

/** `handoff` that must succeed; returns the new id. */
async function handoff(
  s: Scenario,
  from: LaneName,
  to: string,
  sha: string,
  path: string,
  subject = "handoff",
  body = "please review\n",
): Promise<string> {
  const r = await coord(s, from, handoffArgs(to, sha, path, subject), body);
  return expectId(r, `${from} handoff of ${sha}:${path} to ${to}`, s, from);
}

/** A command that must be refused: the refusal exit code and no message id on stdout. */
function assertDenied(r: Run, what: string): void {
  assertEquals(r.code, EXIT_REFUSED, `${what} must be refused\n${show(r)}`);
  assertOk(!/E001-M\d+/.test(r.stdout), `${what} must not create a message\n${show(r)}`);
}

/** `send` that must be refused. */
async function sendDenied(
  s: Scenario,
  from: LaneName,
  to: string,
  subject: string,
  body: string,
  extra: string[] = [],
): Promise<Run> {
  const r = await coord(s, from, ["send", WI, "--to", to, "--subject", subject, ...extra], body);
  assertDenied(r, `${from} send to ${to} ${extra.join(" ")}`);
  return r;
}

/** `handoff` that must be refused (any reason: sender, recipient or channel). */
async function handoffDenied(
  s: Scenario,
  from: LaneName,
  to: string,
  sha: string,
  path: string,
): Promise<Run> {
  const r = await coord(s, from, handoffArgs(to, sha, path, "probe"), "probe\n");
  assertDenied(r, `${from} handoff of ${sha}:${path} to ${to}`);
  return r;
}

/** The ids a lane's inbox lists that it did not send itself. */
async function inbox(s: Scenario, lane: LaneName, extra: string[] = []): Promise<string[]> {
  return (await inboxRaw(s, lane, extra)).filter((id) => SENDERS.get(`${s.root}\n${id}`) !== lane);
}

/** Every id a lane's inbox lists (the first id on each line). */
async function inboxRaw(s: Scenario, lane: LaneName, extra: string[] = []): Promise<string[]> {
  const r = await coord(s, lane, ["inbox", WI, ...extra]);
  assertEquals(r.code, 0, `${lane} inbox must succeed\n${show(r)}`);
  const ids: string[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = line.match(/E001-M\d+/);
    if (m) ids.push(m[0]);
  }
  return ids;
}

/** The inbox line of one message. */
async function inboxLine(s: Scenario, lane: LaneName, id: string): Promise<string> {
  const r = await coord(s, lane, ["inbox", WI]);
  assertEquals(r.code, 0, show(r));
  const line = r.stdout.split("\n").find((l) => l.includes(id));
  assertOk(line !== undefined, `${lane} inbox must list ${id}\n${show(r)}`);
  return line;
}

/** `read` that must succeed; returns stdout. */
async function read(s: Scenario, lane: LaneName, id: string, json = false): Promise<string> {
  const r = await coord(s, lane, ["read", id, ...(json ? ["--json"] : [])]);
  assertEquals(r.code, 0, `${lane} read ${id} must succeed\n${show(r)}`);
  return r.stdout;
}

function normalise(r: Run, id: string): Run {
  return {
    code: r.code,
    stdout: r.stdout.replaceAll(id, "<ID>"),
    stderr: r.stderr.replaceAll(id, "<ID>"),
  };
}

/** The answer to each command naming {@linkcode MISSING_ID}, per scenario and lane (run once). */
const MISSING_ANSWERS = new Map<string, Run>();

/**
 * A command naming a message id the lane may not see must be answered exactly as the same
 * command naming an id that does not exist (the id itself may be echoed).
 */
async function assertLikeMissing(
  s: Scenario,
  lane: LaneName,
  id: string,
  make: (id: string) => string[],
  body?: string,
): Promise<void> {
  const key = `${s.root}\n${lane}\n${make(MISSING_ID).join(" ")}`;
  let missing = MISSING_ANSWERS.get(key);
  const [seen] = await Promise.all([
    coord(s, lane, make(id), body),
    missing === undefined
      ? coord(s, lane, make(MISSING_ID), body).then((r) => {
        missing = normalise(r, MISSING_ID);
        MISSING_ANSWERS.set(key, missing);
      })
      : Promise.resolve(),
  ]);
  assertDenied(seen, `${lane} ${make(id).join(" ")}`);
  assertEquals(
    (seen.stdout + seen.stderr).trim(),
    MESSAGE_REFUSAL,
    `${lane} ${make(id).join(" ")}\n${show(seen)}`,
  );
  assertEquals(
    normalise(seen, id),
    missing,
    `${lane} ${make(id).join(" ")} must be answered exactly like a nonexistent id`,
  );
}

/**
 * Every way a lane can touch message ids it may not see — read, ack, reply-to, and when
 * `thorough` also read --json and forward — is answered like a missing id, and the inbox
 * does not list them.
 */
async function assertMessageUnseen(
  s: Scenario,
  lane: LaneName,
  ids: string | string[],
  thorough = false,
): Promise<void> {
  const to = lane === "Primary" ? "W1" : "Primary";
  const variants: Array<{ make: (x: string) => string[]; body?: string }> = [
    { make: (x) => ["read", x] },
    { make: (x) => ["ack", x] },
    { make: (x) => ["send", WI, "--to", to, "--subject", "re", "--reply-to", x], body: "re\n" },
  ];
  if (thorough) {
    variants.push(
      { make: (x) => ["read", x, "--json"] },
      { make: (x) => ["send", WI, "--to", to, "--subject", "fwd", "--forward", x], body: "f\n" },
    );
  }
  const list = typeof ids === "string" ? [ids] : ids;
  await parallel(
    list.flatMap((id) => variants.map((v) => () => assertLikeMissing(s, lane, id, v.make, v.body))),
  );
  const listed = (await inboxRaw(s, lane)).join(" ");
  for (const id of list) assertExcludes(listed, id);
}

/** The refusal of a handoff naming a nonexistent full SHA, for comparison. */
async function referenceRefusal(
  s: Scenario,
  lane: LaneName,
  to: string,
  env?: Record<string, string>,
): Promise<Run> {
  const args = handoffArgs(to, NO_SUCH_SHA, "proof/w1.md", "probe");
  const r = await coord(s, lane, args, "probe\n", env);
  assertRefusal(r, `${lane} handoff of a nonexistent full SHA`);
  return r;
}

function assertRefusal(r: Run, what: string): void {
  assertEquals(r.code, EXIT_REFUSED, `${what} must be refused\n${show(r)}`);
  assertEquals(
    (r.stdout + r.stderr).trim(),
    REFUSAL,
    `${what} must print only the generic refusal\n${show(r)}`,
  );
  assertOk(r.stdout === "" || r.stderr === "", `${what}: the refusal is the only output`);
  assertOk(!HEXISH.test(r.stdout + r.stderr), `${what} must print no object id`);
}

/** One artifact probe. */
interface Probe {
  label: string;
  sha: string;
  path: string;
}

/**
 * Each probe, a handoff from `lane` to `to`, must be refused byte for byte like a handoff of
 * a nonexistent full SHA (stdout, stderr, exit code).
 */
async function assertProbesRefused(
  s: Scenario,
  lane: LaneName,
  to: string,
  probes: Probe[],
  env?: Record<string, string>,
): Promise<void> {
  const ref = await referenceRefusal(s, lane, to, env);
  const runs = await parallel(
    probes.map((p) => () =>
      coord(s, lane, handoffArgs(to, p.sha, p.path, "probe"), "probe\n", env)
    ),
  );
  probes.forEach((p, i) => {
    const r = runs[i] as Run;
    const what = `${lane} handoff to ${to} of ${p.label} (${p.sha}:${p.path})`;
    assertRefusal(r, what);
    assertEquals(r, ref, `${what} must be indistinguishable from a nonexistent commit`);
    assertExcludes(r.stdout + r.stderr, p.path);
  });
}

/** Full text a lane can obtain about messages: its inbox (text and JSON), every visible message. */
async function everythingVisibleTo(s: Scenario, lane: LaneName): Promise<string> {
  const ids = await inboxRaw(s, lane);
  const reads = await parallel(
    ids.flatMap((id) => [() => read(s, lane, id), () => read(s, lane, id, true)]),
  );
  const [list, listJson] = await Promise.all([
    coord(s, lane, ["inbox", WI]),
    coord(s, lane, ["inbox", WI, "--json"]),
  ]);
  return [list.stdout, listJson.stdout, ...reads].join("\n");
}

/** What `status` tells a lane (STATUS itself is public; message content is not). */
async function statusText(s: Scenario, lane: LaneName): Promise<string> {
  const [text, json] = await Promise.all([
    coord(s, lane, ["status", WI]),
    coord(s, lane, ["status", WI, "--json"]),
  ]);
  assertEquals(text.code, 0, show(text));
  return [text.stdout, text.stderr, json.stdout, json.stderr].join("\n");
}

function short(sha: string, n = 7): string {
  return sha.slice(0, n);
}

/** Build a scenario, run the body, always clean up. */
async function withScenario(
  options: { remote?: boolean },
  body: (s: Scenario) => Promise<void>,
): Promise<void> {
  const s = await buildScenario(options);
  try {
    await body(s);
  } finally {
    await removeScenario(s);
  }
}

function released(...pairs: Array<[string, string]>): Policy {
  return { blind: ["W1", "W2"], released: pairs };
}

// ---------------------------------------------------------------------------------------
// A. Basic message

Deno.test("coord A: W1 sends Primary a note, Primary lists, reads and acks it, the ack never rewrites the message", async () => {
  await withScenario({}, async (s) => {
    const id = await send(s, "W1", "Primary", "basic hello", "Hello Primary, W1 here.\n");

    const line = await inboxLine(s, "Primary", id);
    for (const part of ["W1", "NOTE", "SENT", "basic hello"]) assertIncludes(line, part);
    assertExcludes(line, "ACKNOWLEDGED");

    const text = await read(s, "Primary", id);
    for (const part of ["Hello Primary, W1 here.", "basic hello", "W1"]) assertIncludes(text, part);
    assertOk(
      text.indexOf("basic hello") < text.indexOf("Hello Primary, W1 here."),
      "read prints headers, then the body",
    );
    const json = JSON.parse(await read(s, "Primary", id, true));
    assertIncludes(JSON.stringify(json), "Hello Primary, W1 here.");
    JSON.parse((await coord(s, "Primary", ["inbox", WI, "--json"])).stdout);

    const msgs = join(s.commonDir, "coord-lite", WI, "msgs");
    const acks = join(s.commonDir, "coord-lite", WI, "acks");
    const before = await snapshotDir(msgs);
    assertEquals(Object.keys(before).length, 1, "one immutable file per message");

    const ack = await coord(s, "Primary", ["ack", id]);
    assertEquals(ack.code, 0, show(ack));

    assertEquals(await snapshotDir(msgs), before, "ack must not touch the message file");
    const ackFiles = await snapshotDir(acks);
    assertEquals(Object.keys(ackFiles), [`${id}.Primary.json`]);

    const acked = await inboxLine(s, "Primary", id);
    assertIncludes(acked, "ACKNOWLEDGED");
    for (const state of ["ACCEPTED", "EXECUTED"]) assertExcludes(acked, state);
    assertExcludes((await inbox(s, "Primary", ["--unacked"])).join(" "), id);

    await coord(s, "Primary", ["ack", id]);
    assertEquals(await snapshotDir(acks), ackFiles, "a second ack rewrites nothing");
    assertEquals(await snapshotDir(msgs), before);
  });
});

/** path → bytes (as text) and mtime of every file in a directory. */
async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile) continue;
    const p = join(dir, e.name);
    const st = await Deno.stat(p);
    out[e.name] = `${st.mtime?.getTime()}:${await Deno.readTextFile(p)}`;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

// ---------------------------------------------------------------------------------------
// B. Exact handoff

Deno.test("coord B: a handoff pins the exact commit and file, survives branch movement, and reports objects that are gone", async (t) => {
  await withScenario({}, async (s) => {
    const { a } = s.sha;
    const blob = await git(s.dir.W1, ["rev-parse", `${a}:proof/w1.md`]);
    const tree = await git(s.dir.W1, ["rev-parse", `${a}^{tree}`]);
    const id = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen for review");

    await t.step("the recipient reads commit, path, blob id and tree id", async () => {
      const text = await read(s, "Primary", id);
      for (const part of [a, "proof/w1.md", blob, tree, "W1 frozen for review"]) {
        assertIncludes(text, part);
      }
      assertIncludes(text, "artifact-check: ok"); // docs/coord.md
      assertIncludes(await read(s, "Primary", id, true), a);
      const line = await inboxLine(s, "Primary", id);
      assertIncludes(line, "HANDOFF");
    });

    await t.step("moving W1's branch afterwards changes nothing the recipient reads", async () => {
      await writeFiles(s.dir.W1, { "proof/w1.md": "W1 rewrote everything after the handoff\n" });
      const moved = await commitAll(s.dir.W1, "W1 after handoff");
      await git(s.dir.W1, ["branch", "-f", "w1-pointer", moved]);
      const again = await read(s, "Primary", id);
      for (const part of [a, blob, tree, "artifact-check: ok"]) assertIncludes(again, part);
      assertExcludes(again, moved);
    });

    await t.step("HEAD is resolved to the sender's full SHA before it is stored", async () => {
      const head = await git(s.dir.W1, ["rev-parse", "HEAD"]);
      const h = await handoff(s, "W1", "Primary", "HEAD", "proof/w1.md", "W1 head");
      await commitAll(s.dir.W1, "W1 moves on");
      assertIncludes(await read(s, "Primary", h), head);
    });

    await t.step(
      "a handoff whose commit lost every ref is flagged, and gone objects are reported on read",
      async () => {
        await git(s.dir.W1, ["checkout", "-q", "-b", "w1-tmp"]);
        await writeFiles(s.dir.W1, { "proof/ephemeral.md": "W1 ephemeral 7f3c\n" });
        const x = await commitAll(s.dir.W1, "W1 ephemeral");
        const hx = await handoff(s, "W1", "Primary", x, "proof/ephemeral.md", "ephemeral");
        const intact = await read(s, "Primary", hx);
        assertIncludes(intact, x);
        await git(s.dir.W1, ["checkout", "-q", "w1"]);
        await git(s.dir.W1, ["branch", "-q", "-D", "w1-tmp"]);

        const status = await coord(s, "Primary", ["status", WI]);
        assertEquals(status.code, 0, show(status));
        assertIncludes(status.stdout, hx);
        assertIncludes(status.stdout, "OWNER ACTION:");

        await git(s.dir.Primary, ["reflog", "expire", "--expire=now", "--all"]);
        await git(s.dir.Primary, ["gc", "-q", "--prune=now"]);
        const gone = await run0(s.dir.Primary, ["cat-file", "-e", x]);
        assertOk(!gone, "fixture: the commit must really be gone");

        const r = await coord(s, "Primary", ["read", hx]);
        const out = r.stdout + r.stderr;
        assertOk(out !== intact, "the read must differ once the objects are gone");
        assertOk(
          /gone|missing|no longer|mismatch|unavailable|not found|cannot|does not/i.test(out),
          `the read must say plainly that the artifact is gone\n${show(r)}`,
        );
        assertIncludes(out, "artifact-check: GONE"); // docs/coord.md
      },
    );
  });
});

/** Run git; true when it exits 0. */
async function run0(cwd: string, args: string[]): Promise<boolean> {
  try {
    await git(cwd, args);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------
// C. Blind W1/W2

Deno.test("coord C: W1 and W2 stay blind to each other through every channel and artifact route", async (t) => {
  await withScenario({}, async (s) => {
    const { a, a0, c, b, tagOnly, renamed, deleted, w2Merge, primaryMerge, primaryOnA, ghostOnA } =
      s.sha;
    let p1 = "";
    let p2 = "";

    await t.step("W1→W2 and W2→W1 direct messages are refused and never delivered", async () => {
      await sendDenied(s, "W1", "W2", "psst", "W1 secret lemma text\n");
      await sendDenied(s, "W2", "W1", "psst", "W2 secret induction text\n");
      await sendDenied(s, "W1", "Primary,W2", "to both", "W1 secret lemma text\n");
      p1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");
      p2 = await send(s, "W2", "Primary", "W2 private derivation", "W2 secret induction text\n");
      assertEquals(await inbox(s, "W2"), []);
      assertEquals(await inbox(s, "W1"), []);
      assertEquals((await inbox(s, "Primary")).sort(), [p1, p2].sort());
    });

    await t.step("CC of the other blind lane is refused at send", async () => {
      await sendDenied(s, "W1", "Primary", "cc attempt", "W1 cc secret\n", ["--cc", "W2"]);
      await sendDenied(s, "W2", "Primary", "cc attempt", "W2 cc secret\n", ["--cc", "W1"]);
      assertEquals(await inbox(s, "W2"), []);
      assertEquals(await inbox(s, "W1"), []);
      assertEquals((await inbox(s, "Primary")).sort(), [p1, p2].sort());
    });

    await t.step(
      "W2 cannot read, ack, forward or reply to W1's message: it is answered like a missing id",
      async () => {
        await assertMessageUnseen(s, "W2", p1, true);
        await assertMessageUnseen(s, "W1", p2, true);
      },
    );

    await t.step("Primary cannot forward W1's message to W2", async () => {
      await sendDenied(s, "Primary", "W2", "fwd", "see below\n", ["--forward", p1]);
      await sendDenied(s, "Primary", "W1", "fwd", "see below\n", ["--forward", p2]);
      assertEquals(await inbox(s, "W2"), []);
    });

    await t.step("a Primary reply to W1's message shows W2 nothing of the parent", async () => {
      const r = await coord(
        s,
        "Primary",
        ["send", WI, "--to", "W2", "--subject", "Primary question", "--reply-to", p1],
        "Primary's own words only\n",
      );
      if (r.code === 0) {
        const reply = expectId(r, "Primary reply", s, "Primary");
        const text = (await read(s, "W2", reply)) + (await read(s, "W2", reply, true));
        assertIncludes(text, "Primary's own words only");
        for (const leak of ["W1 secret lemma text", "W1 private derivation", p1]) {
          assertExcludes(text, leak);
        }
        const back = await send(s, "W2", "Primary", "W2 answers", "W2 answer\n", [
          "--reply-to",
          reply,
        ]);
        assertOk((await inbox(s, "Primary")).includes(back));
      }
      await assertLikeMissing(s, "W2", p1, (x) => ["read", x]);
    });

    await t.step(
      "forwarding that reply to W2 does not reveal the hidden parent either",
      async () => {
        const reply = await send(s, "Primary", "W2", "Primary asks", "Primary's question\n", [
          "--reply-to",
          p1,
        ]);
        const fwd = await send(s, "Primary", "W2", "fwd", "Primary forwards its question\n", [
          "--forward",
          reply,
        ]);
        const text = (await read(s, "W2", fwd)) + (await read(s, "W2", fwd, true));
        assertIncludes(text, "Primary's question");
        for (const leak of [p1, "W1 secret lemma text", "W1 private derivation"]) {
          assertExcludes(text, leak);
        }
      },
    );

    await t.step(
      "W2 handoffs of W1's work are refused exactly like a missing commit, by every route",
      async () => {
        const primaryBefore = await inboxRaw(s, "Primary");
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "W1's frozen commit by full SHA", sha: a, path: "proof/w1.md" },
          { label: "W1's frozen commit, missing path", sha: a, path: "proof/none.md" },
          { label: "W1's draft by full SHA", sha: a0, path: "proof/w1.md" },
          { label: "W1's later draft by full SHA", sha: c, path: "proof/w1.md" },
          { label: "W1's branch name", sha: "w1", path: "proof/w1.md" },
          { label: "W1's branch full ref", sha: "refs/heads/w1", path: "proof/w1.md" },
          { label: "W1's tag-only commit", sha: tagOnly, path: "proof/w1-tagonly.md" },
          { label: "the misleading tag", sha: s.tag, path: "proof/w1-tagonly.md" },
          {
            label: "W1's commit on a branch renamed w2-side",
            sha: renamed,
            path: "proof/w1-side.md",
          },
          { label: "the renamed branch by name", sha: "w2-side", path: "proof/w1-side.md" },
          {
            label: "W1's commit whose branch was deleted",
            sha: deleted,
            path: "proof/w1-doomed.md",
          },
          {
            label: "W1's commit reached through W2's own merge",
            sha: `${w2Merge}^2`,
            path: "proof/w1.md",
          },
          { label: "Primary's merge of W1's commit", sha: primaryMerge, path: "proof/w1.md" },
          { label: "Primary's commit on top of W1's", sha: primaryOnA, path: "proof/w1.md" },
          { label: "a reflog-less commit on top of W1's", sha: ghostOnA, path: "proof/w1.md" },
          { label: "abbreviated W1 SHA (7)", sha: short(a), path: "proof/w1.md" },
          { label: "abbreviated W1 SHA (12)", sha: short(a, 12), path: "proof/w1.md" },
          { label: "upper-case W1 SHA", sha: a.toUpperCase(), path: "proof/w1.md" },
          { label: "rev expression w1~1", sha: "w1~1", path: "proof/w1.md" },
          { label: "rev expression <sha>^{commit}", sha: `${a}^{commit}`, path: "proof/w1.md" },
          { label: "message search :/W1 frozen", sha: ":/W1 frozen", path: "proof/w1.md" },
          { label: "W1's reflog w1@{1}", sha: "w1@{1}", path: "proof/w1.md" },
        ]);
        assertEquals(await inboxRaw(s, "Primary"), primaryBefore, "no probe created a message");
      },
    );

    await t.step(
      "W2's own commits pass while its abbreviations and rev expressions do not",
      async () => {
        const own = await handoff(s, "W2", "Primary", b, "proof/w2.md", "W2 frozen");
        assertIncludes(await read(s, "Primary", own), b);
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "own abbreviated SHA", sha: short(b), path: "proof/w2.md" },
          { label: "HEAD~1", sha: "HEAD~1", path: "proof/w2.md" },
          { label: "main^{tree}", sha: "main^{tree}", path: "STATUS" },
          { label: "own branch name", sha: "w2", path: "proof/w2.md" },
          { label: ":/W2 frozen", sha: ":/W2 frozen", path: "proof/w2.md" },
        ]);
      },
    );

    await t.step(
      "W1's own commits pass by full SHA however its branches moved (tag-only, renamed, deleted)",
      async () => {
        for (
          const [sha, path] of [
            [tagOnly, "proof/w1-tagonly.md"],
            [renamed, "proof/w1-side.md"],
            [deleted, "proof/w1-doomed.md"],
          ] as const
        ) {
          const id = await handoff(s, "W1", "Primary", sha, path, "W1 side work");
          assertIncludes(await read(s, "Primary", id), sha);
        }
      },
    );

    await t.step(
      "W2 cannot launder W1's work through its own merge or a commit built on W1's",
      async () => {
        const W2 = s.dir.W2;
        try {
          await git(W2, ["checkout", "-q", "--detach", a]);
          await writeFiles(W2, { "proof/w2-on-w1.md": "W2 builds on W1\n" });
          const onA = await commitAll(W2, "W2 on top of W1");
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "W2's merge of W1's commit", sha: w2Merge, path: "proof/w1.md" },
            { label: "W2's merge, its own file", sha: w2Merge, path: "proof/w2.md" },
            { label: "W2's commit on top of W1's", sha: onA, path: "proof/w1.md" },
            { label: "HEAD = W2's commit on top of W1's", sha: "HEAD", path: "proof/w2-on-w1.md" },
          ]);
          await handoffDenied(s, "Primary", "W2", onA, "proof/w1.md");
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step(
      "W2 sharing W1's branch (checkout --ignore-other-worktrees) cannot hand off HEAD",
      async () => {
        const W2 = s.dir.W2;
        try {
          await git(W2, ["checkout", "-q", "--ignore-other-worktrees", "w1"]);
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "HEAD on W1's branch", sha: "HEAD", path: "proof/w1.md" },
          ]);
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step(
      "a W1 commit whose subject mentions HEAD@{1} is still W1's, not Primary's",
      async () => {
        const W1 = s.dir.W1;
        await git(W1, ["checkout", "-q", "-b", "w1-parser", "main"]);
        try {
          await writeFiles(W1, { "proof/parser.md": "W1 private parser notes\n" });
          const x = await commitAll(W1, "support HEAD@{1} syntax");
          await assertProbesRefused(s, "W2", "Primary", [
            { label: "W1's commit with @{1} in its subject", sha: x, path: "proof/parser.md" },
          ]);
          await assertProbesRefused(s, "W3", "Primary", [
            { label: "W1's commit with @{1} in its subject", sha: x, path: "proof/parser.md" },
          ]);
          const own = await handoff(s, "W1", "Primary", x, "proof/parser.md", "parser");
          assertIncludes(await read(s, "Primary", own), x);
        } finally {
          await git(W1, ["checkout", "-q", "w1"]);
        }
      },
    );

    await t.step("W2 that checks out W1's commit still cannot hand off HEAD", async () => {
      await git(s.dir.W2, ["checkout", "-q", "--detach", a]);
      try {
        await assertProbesRefused(s, "W2", "Primary", [
          { label: "HEAD at W1's commit", sha: "HEAD", path: "proof/w1.md" },
          { label: "HEAD at W1's commit, missing path", sha: "HEAD", path: "proof/none.md" },
        ]);
      } finally {
        await git(s.dir.W2, ["checkout", "-q", "w2"]);
      }
    });

    await t.step(
      "W2 fast-forwarding onto W1's commits (merge --ff-only, rebase, cherry-pick --ff, pull) does not take them",
      async () => {
        const W2 = s.dir.W2;
        const probes = (label: string): Probe[] => [
          { label: `HEAD after ${label}`, sha: "HEAD", path: "proof/w1.md" },
          { label: `W1's later draft after ${label}`, sha: c, path: "proof/w1.md" },
          { label: `W1's frozen commit after ${label}`, sha: a, path: "proof/w1.md" },
        ];
        try {
          await git(W2, ["checkout", "-q", "-b", "w2-ff", s.sha.status]);
          await git(W2, ["merge", "-q", "--ff-only", "w1"]);
          await assertProbesRefused(s, "W2", "Primary", probes("merge --ff-only"));
          await git(W2, ["checkout", "-q", "-B", "w2-ff", s.sha.status]);
          await git(W2, ["rebase", "-q", "w1"]);
          await git(W2, ["checkout", "-q", "--detach", a0]);
          await git(W2, ["cherry-pick", "--ff", a]);
          await git(W2, ["checkout", "-q", "--detach", s.sha.status]);
          await git(W2, ["pull", "-q", "--ff-only", s.dir.Primary, "w1"]);
          await assertProbesRefused(s, "W2", "Primary", probes("rebase, cherry-pick --ff, pull"));
        } finally {
          await git(W2, ["checkout", "-q", "w2"]);
        }
      },
    );

    await t.step("Primary cannot hand W1's commits, or commits built on them, to W2", async () => {
      const h = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen");
      for (const sha of [a, c, primaryOnA, primaryMerge, ghostOnA, tagOnly]) {
        await handoffDenied(s, "Primary", "W2", sha, "proof/w1.md");
      }
      await sendDenied(s, "Primary", "W2", "fwd", "fwd\n", ["--forward", h]);
      await assertLikeMissing(s, "W2", h, (x) => ["read", x]);
      const pub = await handoff(s, "Primary", "W2", s.sha.base, "problem.md", "the problem");
      const own = await handoff(s, "Primary", "W2", b, "proof/w2.md", "your result");
      assertEquals((await inbox(s, "W2")).filter((x) => x === pub || x === own).length, 2);
    });

    await t.step("a lane whose worktree was created at W1's commit does not own it", async () => {
      const w5 = join(s.dir.Primary, LANE_DIR, "W5");
      await git(s.dir.Primary, ["worktree", "add", "-q", "--detach", w5, a]);
      await commitStatus(s, { ...SEALED, extraLanes: [["W5", `${LANE_DIR}/W5`]] });
      const r = await coordIn(
        w5,
        handoffArgs("Primary", NO_SUCH_SHA, "proof/w1.md", "probe"),
        "probe\n",
      );
      assertRefusal(r, "W5 handoff of a nonexistent full SHA");
      for (const sha of ["HEAD", a]) {
        const p = await coordIn(w5, handoffArgs("Primary", sha, "proof/w1.md", "probe"), "probe\n");
        assertEquals(p, r, `W5 handoff of ${sha} (W1's commit it was created at)`);
      }
      await commitStatus(s, SEALED);
    });

    await t.step("nothing W2 can list or read mentions W1's commits or words", async () => {
      const status = await statusText(s, "W2");
      for (const word of ["W1 secret", "W1 private", "W1 frozen", "lemma", p1]) {
        assertExcludes(status, word);
      }
      for (const sha of [a, a0, c, tagOnly, renamed, deleted]) assertExcludes(status, short(sha));
      const all = await everythingVisibleTo(s, "W2");
      for (const sha of [a, a0, c, tagOnly, renamed, deleted]) {
        assertExcludes(all, sha);
        assertExcludes(all, short(sha));
      }
      for (const word of ["W1 secret", "W1 private", "W1 frozen", "lemma", p1]) {
        assertExcludes(all, word);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------
// D. W3 before release

Deno.test("coord D: before release W3 sees neither frozen result and Primary cannot forward blind content to W3", async (t) => {
  await withScenario({}, async (s) => {
    const { a, b, primaryOnA, primaryMerge, ghostOnA } = s.sha;
    const h1 = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen result");
    const h2 = await handoff(s, "W2", "Primary", b, "proof/w2.md", "W2 frozen result");
    const m1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");

    await t.step("W3 lists none of it and every id is answered like a missing one", async () => {
      assertEquals(await inbox(s, "W3"), []);
      await assertMessageUnseen(s, "W3", [h1, h2, m1]);
    });

    await t.step("Primary cannot hand off, forward or reply blind content to W3", async () => {
      await handoffDenied(s, "Primary", "W3", a, "proof/w1.md");
      await handoffDenied(s, "Primary", "W3", b, "proof/w2.md");
      await handoffDenied(s, "Primary", "W3", primaryOnA, "proof/w1.md");
      await handoffDenied(s, "Primary", "W3", primaryMerge, "proof/w1.md");
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", h1]);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", h2]);
      assertEquals(await inbox(s, "W3"), []);
      const r = await coord(
        s,
        "Primary",
        ["send", WI, "--to", "W3", "--subject", "about W1", "--reply-to", h1],
        "Primary: wait for the release\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "Primary reply to W1's handoff, to W3", s, "Primary");
        const text = (await read(s, "W3", id)) + (await read(s, "W3", id, true));
        for (const leak of [a, short(a), h1, "W1 frozen result", "please review"]) {
          assertExcludes(text, leak);
        }
      }
    });

    await t.step("sealed lanes and W3 cannot talk directly", async () => {
      await sendDenied(s, "W1", "W3", "hi", "W1 secret lemma text\n");
      await sendDenied(s, "W2", "W3", "hi", "W2 secret\n");
      await sendDenied(s, "W3", "W1", "question", "what is lemma 2?\n");
      await sendDenied(s, "W3", "W2", "question", "what is the bound?\n");
      await sendDenied(s, "W1", "Primary", "cc W3", "W1 secret\n", ["--cc", "W3"]);
      await handoffDenied(s, "W1", "W3", a, "proof/w1.md");
      await handoffDenied(s, "W1", "Primary,W3", a, "proof/w1.md");
      await sendDenied(s, "W1", "Primary,W3", "to both", "W1 secret\n");
      assertEquals(await inbox(s, "Primary"), [h1, h2, m1], "refused sends deliver to nobody");
    });

    await t.step(
      "W3's probes of the frozen results are refused exactly like a missing commit",
      async () => {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-A", sha: a, path: "proof/w1.md" },
          { label: "SHA-A missing path", sha: a, path: "proof/none.md" },
          { label: "SHA-B", sha: b, path: "proof/w2.md" },
          { label: "abbreviated SHA-A", sha: short(a, 10), path: "proof/w1.md" },
          { label: "w1", sha: "w1", path: "proof/w1.md" },
          { label: "Primary on A", sha: primaryOnA, path: "notes/primary.md" },
          { label: "ghost on A", sha: ghostOnA, path: "proof/w1.md" },
        ]);
      },
    );

    await t.step("W3 that checks out SHA-A cannot hand off HEAD before release", async () => {
      await git(s.dir.W3, ["checkout", "-q", "--detach", a]);
      try {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "HEAD at SHA-A", sha: "HEAD", path: "proof/w1.md" },
        ]);
      } finally {
        await git(s.dir.W3, ["checkout", "-q", "w3"]);
      }
    });

    await t.step("W3 still talks with Primary and hands off its own work", async () => {
      const note = await send(s, "Primary", "W3", "wait for release", "Primary: please wait\n");
      const list = await inbox(s, "W3");
      assertOk(list.includes(note), `W3 must list ${note}: ${list}`);
      for (const id of [h1, h2, m1]) assertOk(!list.includes(id));
      const mine = await handoff(s, "W3", "Primary", s.sha.w3, "review/w3.md", "W3 plan");
      assertIncludes(await read(s, "Primary", mine), s.sha.w3);
      const all = await everythingVisibleTo(s, "W3");
      for (const leak of [a, b, short(a), short(b), "W1 secret", "W1 frozen", "W2 frozen"]) {
        assertExcludes(all, leak);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------
// E. Release

Deno.test("coord E: after release of SHA-A and SHA-B W3 sees exactly those, not later drafts and not private history", async (t) => {
  await withScenario({}, async (s) => {
    const { a, a0, b, b0, c, d, tagOnly, renamed, primaryOnA, ghostOnA } = s.sha;
    const m1 = await send(s, "W1", "Primary", "W1 private derivation", "W1 secret lemma text\n");
    const m2 = await send(s, "W2", "Primary", "W2 private derivation", "W2 secret induction\n");
    const h1 = await handoff(s, "W1", "Primary", a, "proof/w1.md", "W1 frozen to Primary");
    await commitStatus(s, released(["W1", a], ["W2", b]));

    let rA = "";
    let rB = "";
    await t.step("W1, W2 and Primary hand the released commits to W3, who reads them", async () => {
      rA = await handoff(s, "W1", "W3", a, "proof/w1.md", "SHA-A for comparison");
      rB = await handoff(s, "W2", "W3", b, "proof/w2.md", "SHA-B for comparison");
      const pA = await handoff(s, "Primary", "W3", a, "proof/w1.md", "SHA-A from Primary");
      assertEquals((await inbox(s, "W3")).sort(), [rA, rB, pA].sort());
      const ta = await read(s, "W3", rA);
      assertIncludes(ta, a);
      assertIncludes(ta, "proof/w1.md");
      assertIncludes(await read(s, "W3", rB), b);
      const back = await handoff(s, "W3", "Primary", a, "proof/w1.md", "W3 compares SHA-A");
      assertIncludes(await read(s, "Primary", back), a);
      await handoff(s, "W3", "Primary", b, "proof/w2.md", "W3 compares SHA-B");
    });

    await t.step(
      "W3 cannot inspect later drafts, earlier drafts or other W1/W2 commits",
      async () => {
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-C (W1 later draft)", sha: c, path: "proof/w1.md" },
          { label: "SHA-D (W2 later draft)", sha: d, path: "proof/w2.md" },
          { label: "W1 draft before SHA-A", sha: a0, path: "proof/w1.md" },
          { label: "W2 draft before SHA-B", sha: b0, path: "proof/w2.md" },
          { label: "W1 tag-only commit", sha: tagOnly, path: "proof/w1-tagonly.md" },
          { label: "W1 renamed-branch commit", sha: renamed, path: "proof/w1-side.md" },
          { label: "SHA-C missing path", sha: c, path: "proof/none.md" },
          { label: "abbreviated SHA-A", sha: short(a), path: "proof/w1.md" },
          { label: "SHA-A~0", sha: `${a}~0`, path: "proof/w1.md" },
          { label: "w1 branch", sha: "w1", path: "proof/w1.md" },
        ]);
        await handoffDenied(s, "W1", "W3", c, "proof/w1.md");
        await handoffDenied(s, "W1", "W3", "HEAD", "proof/w1.md");
        await handoffDenied(s, "W2", "W3", d, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", c, "proof/w1.md");
        await handoffDenied(s, "Primary", "W3", d, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", a0, "proof/w1.md");
      },
    );

    await t.step("historical private W1→Primary and W2→Primary messages stay private", async () => {
      await assertMessageUnseen(s, "W3", [m1, m2, h1], true);
      await sendDenied(s, "Primary", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "W1", "W3", "fwd", "fwd\n", ["--forward", m1]);
      await sendDenied(s, "W2", "W3", "fwd", "fwd\n", ["--forward", m2]);
      const r = await coord(
        s,
        "W1",
        ["send", WI, "--to", "W3", "--subject", "context", "--reply-to", m1],
        "see my earlier note\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "W1 reply to its own private message, to W3", s, "W1");
        const text = (await read(s, "W3", id)) + (await read(s, "W3", id, true));
        assertExcludes(text, "W1 secret lemma text");
        assertExcludes(text, "W1 private derivation");
      }
      const all = await everythingVisibleTo(s, "W3");
      for (const leak of ["secret", "private derivation", c, d, a0, b0, short(c), short(d)]) {
        assertExcludes(all, leak);
      }
      const status = await statusText(s, "W3");
      for (const leak of ["secret", "private derivation", "W1 frozen to Primary"]) {
        assertExcludes(status, leak);
      }
    });

    await t.step("the release does not open the blind lanes to each other", async () => {
      await sendDenied(s, "W1", "W2", "now?", "W1 text\n");
      await handoffDenied(s, "W1", "W2", a, "proof/w1.md");
      await handoffDenied(s, "W3", "W1", b, "proof/w2.md");
      await handoffDenied(s, "W3", "W2", a, "proof/w1.md");
      await handoffDenied(s, "Primary", "W2", a, "proof/w1.md");
      await sendDenied(s, "W3", "W1", "fwd", "fwd\n", ["--forward", rB]);
    });

    await t.step(
      "a Primary commit on top of SHA-A is covered by the release; one on SHA-C and reflog-less ones are not",
      async () => {
        const onC = await git(s.dir.Primary, [
          "commit-tree",
          `${c}^{tree}`,
          "-p",
          c,
          "-m",
          "ghost on C",
        ]);
        const ok = await handoff(
          s,
          "Primary",
          "W3",
          primaryOnA,
          "notes/primary.md",
          "Primary on A",
        );
        assertIncludes(await read(s, "W3", ok), primaryOnA);
        // A commit no reflog records may hold any lane's work (a popped stash, a removed
        // worktree's commits): Primary only, even on top of a released commit.
        await handoffDenied(s, "Primary", "W3", ghostOnA, "proof/w1.md");
        await handoffDenied(s, "Primary", "W3", onC, "proof/w1.md");
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "Primary's reflog-less commit on SHA-C", sha: onC, path: "proof/w1.md" },
        ]);
      },
    );
  });
});

// ---------------------------------------------------------------------------------------
// F. Post-release dialogue

Deno.test("coord F: after release W3 challenges W1 and W2 and they reply, while unreleased repairs stay blocked", async (t) => {
  await withScenario({}, async (s) => {
    const { a, b } = s.sha;
    await commitStatus(s, released(["W1", a], ["W2", b]));
    let q1 = "";
    let r1 = "";
    let q2 = "";
    let r2 = "";

    await t.step("W3 ↔ W1 and W3 ↔ W2 challenge and reply", async () => {
      q1 = await send(s, "W3", "W1", "challenge lemma 2", "W3: lemma 2 fails for n=0\n", [
        "--type",
        "QUESTION",
      ]);
      q2 = await send(s, "W3", "W2", "challenge bound", "W3: the bound is loose\n", [
        "--type",
        "QUESTION",
      ]);
      const l1 = await inboxLine(s, "W1", q1);
      assertIncludes(l1, "W3");
      assertIncludes(l1, "QUESTION");
      assertIncludes(await read(s, "W1", q1), "lemma 2 fails for n=0");
      assertIncludes(await read(s, "W2", q2), "the bound is loose");
      r1 = await send(s, "W1", "W3", "re: lemma 2", "W1: n=0 is excluded by hypothesis\n", [
        "--reply-to",
        q1,
        "--provenance",
        "DERIVED_INDEPENDENTLY",
      ]);
      r2 = await send(s, "W2", "W3", "re: bound", "W2: tightened in the appendix\n", [
        "--reply-to",
        q2,
      ]);
      assertEquals((await inbox(s, "W3")).sort(), [r1, r2].sort());
      assertIncludes(await read(s, "W3", r1), "n=0 is excluded by hypothesis");
      assertIncludes(await read(s, "W3", r2), "tightened in the appendix");
    });

    await t.step("each blind lane sees only its own thread", async () => {
      await assertMessageUnseen(s, "W1", [q2, r2]);
      await assertMessageUnseen(s, "W2", [q1, r1]);
    });

    await t.step("W3 cannot carry one blind lane's words or release to the other", async () => {
      await sendDenied(s, "W3", "W1", "fwd", "fwd\n", ["--forward", r2]);
      await sendDenied(s, "W3", "W2", "fwd", "fwd\n", ["--forward", r1]);
      await handoffDenied(s, "W3", "W1", b, "proof/w2.md");
      await handoffDenied(s, "W3", "W2", a, "proof/w1.md");
      const r = await coord(
        s,
        "W3",
        ["send", WI, "--to", "W1", "--subject", "compare", "--reply-to", r2],
        "W3 asks W1 to compare\n",
      );
      if (r.code === 0) {
        const id = expectId(r, "W3 reply to W2's message, sent to W1", s, "W3");
        const text = (await read(s, "W1", id)) + (await read(s, "W1", id, true));
        assertExcludes(text, "tightened in the appendix");
        assertExcludes(text, "re: bound");
      }
      const all = await everythingVisibleTo(s, "W1");
      for (const leak of [b, short(b), "tightened", "the bound is loose"]) {
        assertExcludes(all, leak);
      }
    });

    await t.step(
      "unreleased repair commits stay blocked until they get their own release",
      async () => {
        await writeFiles(s.dir.W1, { "proof/w1.md": "W1 repair: n=0 handled\n" });
        const repair1 = await commitAll(s.dir.W1, "W1 repair after challenge");
        await writeFiles(s.dir.W2, { "proof/w2.md": "W2 repair: tighter bound\n" });
        const repair2 = await commitAll(s.dir.W2, "W2 repair after challenge");
        await handoffDenied(s, "W1", "W3", repair1, "proof/w1.md");
        await handoffDenied(s, "W1", "W3", "HEAD", "proof/w1.md");
        await handoffDenied(s, "W2", "W3", repair2, "proof/w2.md");
        await handoffDenied(s, "Primary", "W3", repair1, "proof/w1.md");
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "W1 repair", sha: repair1, path: "proof/w1.md" },
          { label: "W2 repair", sha: repair2, path: "proof/w2.md" },
        ]);
        const ok = await handoff(s, "W1", "W3", a, "proof/w1.md", "still SHA-A");
        assertIncludes(await read(s, "W3", ok), a);

        await commitStatus(s, released(["W1", a], ["W1", repair1], ["W2", b]));
        const rel = await handoff(s, "W1", "W3", repair1, "proof/w1.md", "repair, released");
        assertIncludes(await read(s, "W3", rel), repair1);
        await handoffDenied(s, "W2", "W3", repair2, "proof/w2.md");
      },
    );
  });
});

// ---------------------------------------------------------------------------------------
// G. Withdraw / re-blind

Deno.test("coord G: withdrawing a release or re-blinding a lane hides earlier messages at the next read", async (t) => {
  await withScenario({}, async (s) => {
    const { a, c } = s.sha;
    await commitStatus(s, released(["W1", a]));
    const n1 = await send(s, "W1", "W3", "note after release", "W1 note for W3\n");
    const h1 = await handoff(s, "W1", "W3", a, "proof/w1.md", "SHA-A for W3");

    await t.step("while released W3 reads and acks both", async () => {
      assertEquals((await inbox(s, "W3")).sort(), [n1, h1].sort());
      assertIncludes(await read(s, "W3", h1), a);
      assertIncludes(await read(s, "W3", n1), "W1 note for W3");
      assertEquals((await coord(s, "W3", ["ack", n1])).code, 0);
    });

    await t.step(
      "removing the released line hides the note and the handoff like missing ids",
      async () => {
        await commitStatus(s, SEALED);
        assertEquals(await inbox(s, "W3"), []);
        await assertMessageUnseen(s, "W3", [n1, h1]);
        await assertProbesRefused(s, "W3", "Primary", [
          { label: "SHA-A after withdrawal", sha: a, path: "proof/w1.md" },
        ]);
        await sendDenied(s, "W3", "W1", "still there?", "W3 asks\n");
      },
    );

    await t.step("releasing again shows them again", async () => {
      await commitStatus(s, released(["W1", a]));
      assertEquals((await inbox(s, "W3")).sort(), [n1, h1].sort());
      assertIncludes(await read(s, "W3", h1), a);
    });

    await t.step(
      "a release moved to another commit keeps the channel but hides the old artifact",
      async () => {
        await commitStatus(s, released(["W1", c]));
        assertEquals(await inbox(s, "W3"), [n1]);
        await assertMessageUnseen(s, "W3", h1);
        assertIncludes(await read(s, "W3", n1), "W1 note for W3");
      },
    );

    await t.step("lifting W1 and re-blinding it takes effect at the next read", async () => {
      await commitStatus(s, { blind: ["W2"], released: [] });
      const n2 = await send(s, "W1", "W3", "lifted note", "W1 lifted words\n");
      assertIncludes(await read(s, "W3", n2), "W1 lifted words");
      await commitStatus(s, SEALED);
      await assertMessageUnseen(s, "W3", [n2, n1]);
      assertEquals(await inbox(s, "W3"), []);
    });

    await t.step("a Primary forward stays readable only while the original is", async () => {
      await commitStatus(s, released(["W1", a]));
      const m = await send(s, "W1", "Primary,W3", "to both", "W1 words for both\n");
      const f = await send(s, "Primary", "W3", "fwd", "Primary forwards\n", ["--forward", m]);
      assertIncludes(await read(s, "W3", f), "Primary forwards");
      await commitStatus(s, SEALED);
      await assertMessageUnseen(s, "W3", f);
      assertEquals(await inbox(s, "W3"), []);
      await commitStatus(s, released(["W1", a]));
      assertIncludes(await read(s, "W3", f), "Primary forwards");
    });
  });
});

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
