/**
 * `coord wait`, black box: the real entry point under coord's exact flags, in real
 * worktrees, while other lanes send from theirs. No timing assertion: a wait that should
 * return is given a generous timeout (it would fail with exit 5), and a wait that should
 * time out is given a short one.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { Store } from "../src/coord/store.ts";
import type { Message } from "../src/coord/message.ts";
import { RECHECK_MS, waitLoop, wakeWith } from "../src/coord/commands/wait.ts";
import { bin, ROOT, type Run, run } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

/** Long enough for any machine; a wait that should return never gets near it. */
const GENEROUS = "120s";
/** Short, for waits that must time out (they still span several re-checks and arrivals). */
const SHORT = "6s";

/** Every check opens a session, which lists the worktrees once. */
const CHECK = "worktree list";
/** A session reads the policy with `cat-file --batch` (no other git call here uses it). */
const STATUS = "cat-file --batch";

function show(r: Run): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

/**
 * A git first on PATH that logs each call, then runs the real git: it tells a test how far
 * a running wait has got (coord turns git's own trace variables off).
 */
async function traceGit(repo: CoordRepo) {
  const trace = join(repo.root, "trace.log");
  const shim = join(repo.root, "git-shim");
  await Deno.mkdir(shim);
  const realGit = (await run("sh", ["-c", "command -v git"])).stdout.trim();
  await Deno.writeTextFile(
    join(shim, "git"),
    `#!/bin/sh\nprintf 'git %s\\n' "$*" >> "${trace}"\nexec "${realGit}" "$@"\n`,
  );
  await Deno.chmod(join(shim, "git"), 0o755);
  return {
    env: { PATH: `${shim}:${Deno.env.get("PATH")}` },
    /** How many git calls so far hold a text. */
    async calls(text: string): Promise<number> {
      const log = await Deno.readTextFile(trace).catch(() => "");
      return log.split("\n").filter((line) => line.includes(text)).length;
    },
  };
}

/** Start `coord wait` in a lane without waiting for it; `finished()` says whether it ended. */
function startWait(
  repo: CoordRepo,
  lane: Lane,
  args: string[],
  env: Record<string, string> = {},
) {
  let ended = false;
  const done = bin("coord", ["wait", ...args], { cwd: repo.wt[lane], env }).then((r) => {
    ended = true;
    return r;
  });
  return { done, finished: () => ended };
}

/**
 * Until a condition holds while the wait still runs: a readiness condition, not a timing
 * assertion (bounded only so that a broken wait fails instead of hanging).
 */
async function until(what: string, ready: () => Promise<boolean>, wait: { finished(): boolean }) {
  for (let i = 0; i < 1200; i++) {
    if (await ready()) return;
    assertOk(!wait.finished(), `the wait ended before ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never: ${what}`);
}

/** Until the wait has made (and so watches) the work item's `msgs/` directory. */
function untilWatching(repo: CoordRepo, workItem: string, wait: { finished(): boolean }) {
  const dir = join(repo.wt.Primary, ".git", "coord-lite", workItem, "msgs");
  return until(`it created ${dir}`, () => Deno.stat(dir).then(() => true, () => false), wait);
}

async function send(repo: CoordRepo, lane: Lane, workItem: string, args: string[]) {
  const r = await repo.coord(lane, ["send", workItem, "--subject", "s", ...args], "body\n");
  assertEquals(r.code, 0, show(r));
  return r.stdout.trim();
}

/** Write a record straight into the store, as `send` would under a policy that allowed it then. */
async function storeDirectly(repo: CoordRepo, workItem: string, sender: Lane, to: Lane) {
  const store = new Store(join(repo.wt.Primary, ".git"));
  const message = await store.append(workItem, (id): Message => ({
    format: "coord-lite/message@1",
    id,
    work_item: workItem,
    sender,
    to: [to],
    cc: [],
    type: "NOTE",
    subject: "hidden",
    body: "hidden body\n",
    reply_to: null,
    forward_of: null,
    provenance: null,
    time: new Date().toISOString(),
    artifact: null,
  }));
  return message.id;
}

function assertTimedOut(r: Run, lane: Lane, workItem: string, timeout: string) {
  assertEquals(r.code, 5, show(r));
  assertEquals(r.stdout, "", show(r));
  assertEquals(
    r.stderr,
    `timeout: no unacknowledged message for ${lane} in ${workItem} within ${timeout}\n`,
  );
}

Deno.test("coord wait returns at once when a message already waits (even with --timeout 0s)", async () => {
  const repo = await makeCoordRepo();
  try {
    const id = await send(repo, "W1", "E001", ["--to", "Primary"]);
    const once = await repo.coord("Primary", ["wait", "E001", "--timeout", "0s"]);
    assertEquals(once.code, 0, show(once));
    assertEquals(once.stdout, `${id}\n`);
    assertEquals(once.stderr, "");
    const plain = await repo.coord("Primary", ["wait", "E001", "--timeout", GENEROUS]);
    assertEquals(plain.stdout, `${id}\n`, show(plain));
    const json = await repo.coord("Primary", ["wait", "E001", "--json", "--timeout", GENEROUS]);
    assertEquals(json.code, 0, show(json));
    assertEquals(JSON.parse(json.stdout), { work_item: "E001", lane: "Primary", ids: [id] });
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait wakes when another lane sends from its worktree, to or cc", async () => {
  const repo = await makeCoordRepo();
  try {
    // Send only once the wait is past its first check and blocked (a second check began).
    const trace = await traceGit(repo);
    const w3 = startWait(repo, "W3", ["E001", "--timeout", GENEROUS], trace.env);
    await until("a second check", async () => await trace.calls(CHECK) >= 2, w3);
    const id = await send(repo, "W1", "E001", ["--to", "W3"]);
    const r = await w3.done;
    assertEquals(r.code, 0, show(r));
    assertEquals(r.stdout, `${id}\n`);

    const w2 = startWait(repo, "W2", ["E002", "--timeout", GENEROUS]);
    await untilWatching(repo, "E002", w2);
    const cc = await send(repo, "Primary", "E002", ["--to", "W1", "--cc", "W2"]);
    const r2 = await w2.done;
    assertEquals(r2.code, 0, show(r2));
    assertEquals(r2.stdout, `${cc}\n`);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait times out with exit 5 and nothing on stdout", async () => {
  const repo = await makeCoordRepo();
  try {
    assertTimedOut(await repo.coord("W1", ["wait", "E001", "--timeout", "1s"]), "W1", "E001", "1s");
    assertTimedOut(
      await repo.coord("W1", ["wait", "E001", "--timeout", "0s", "--json"]),
      "W1",
      "E001",
      "0s",
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait does not count acknowledged messages or the caller's own", async () => {
  const repo = await makeCoordRepo();
  try {
    const first = await send(repo, "W1", "E001", ["--to", "Primary"]);
    assertEquals((await repo.coord("Primary", ["ack", first])).code, 0);
    assertTimedOut(
      await repo.coord("Primary", ["wait", "E001", "--timeout", "0s"]),
      "Primary",
      "E001",
      "0s",
    );
    // W1 sent it: its own message is not waiting for it.
    assertTimedOut(await repo.coord("W1", ["wait", "E001", "--timeout", "0s"]), "W1", "E001", "0s");
    const second = await send(repo, "W2", "E001", ["--to", "Primary"]);
    const r = await repo.coord("Primary", ["wait", "E001", "--timeout", GENEROUS]);
    assertEquals(r.stdout, `${second}\n`, show(r));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait is not woken by messages the caller may not see, old or arriving", async () => {
  const repo = await makeCoordRepo();
  try {
    // Sent while W1 and W2 were open, then both were made blind: W2 may no longer see it.
    const old = await send(repo, "W1", "E001", ["--to", "W2"]);
    assertEquals(
      (await repo.coord("W2", ["wait", "E001", "--timeout", "0s"])).stdout,
      `${old}\n`,
      "control: visible while the channel is open",
    );
    await repo.setStatus("blind: W1 W2\n");
    assertTimedOut(await repo.coord("W2", ["wait", "E001", "--timeout", "0s"]), "W2", "E001", "0s");

    // Arriving while W2 waits: blind W1 to Primary and Primary to W1 (not for W2), and a
    // record addressed to W2 over the closed channel (as a send under an older policy wrote).
    const trace = await traceGit(repo);
    const w2 = startWait(repo, "W2", ["E002", "--timeout", SHORT], trace.env);
    await until("a second check", async () => await trace.calls(CHECK) >= 2, w2);
    await send(repo, "W1", "E002", ["--to", "Primary"]);
    const hidden = await storeDirectly(repo, "E002", "W1", "W2");
    await send(repo, "Primary", "E002", ["--to", "W1"]);
    assertTimedOut(await w2.done, "W2", "E002", SHORT);
    // And the same record does wake W2 once the policy lets W2 see it.
    await repo.setStatus("");
    const r = await repo.coord("W2", ["wait", "E002", "--timeout", GENEROUS]);
    assertEquals(r.stdout, `${hidden}\n`, show(r));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait returns an older message once a release makes it visible", async () => {
  const repo = await makeCoordRepo();
  try {
    const old = await send(repo, "W1", "E001", ["--to", "W3"]);
    const sha = await repo.commit("W1", { "w1.md": "result\n" });
    await repo.setStatus("blind: W1\n"); // sealed: W1 talks only with Primary
    assertTimedOut(await repo.coord("W3", ["wait", "E001", "--timeout", "0s"]), "W3", "E001", "0s");
    // Release only once the wait's first check has read the old policy.
    const trace = await traceGit(repo);
    const w3 = startWait(repo, "W3", ["E001", "--timeout", GENEROUS], trace.env);
    await until("the first check read STATUS", async () => await trace.calls(STATUS) >= 1, w3);
    await repo.setStatus(`blind: W1\nreleased: W1 ${sha}\n`); // no file appears in the store
    const r = await w3.done;
    assertEquals(r.code, 0, show(r));
    assertEquals(r.stdout, `${old}\n`);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait fails loudly, not by falling back to the grid, when it may not watch the store", async () => {
  const repo = await makeCoordRepo();
  try {
    // Without the write permission it cannot create msgs/; without read it could not watch.
    const r = await run(Deno.execPath(), [
      "run",
      "--quiet",
      "--no-prompt",
      "--allow-run=git",
      "--allow-read",
      join(ROOT, "coord.ts"),
      "wait",
      "E001",
      "--timeout",
      "0s",
    ], { cwd: repo.wt.W1, env: { NO_COLOR: "1" } });
    assertEquals(r.code, 3, show(r));
    assertEquals(r.stdout, "");
    assertOk(
      r.stderr.startsWith("error: coord was started without the Deno permission --allow-write"),
      show(r),
    );
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait usage errors exit 2 with one line and a hint", async () => {
  const repo = await makeCoordRepo();
  try {
    const cases: Array<[string[], string]> = [
      [["wait"], "error: Missing work item id"],
      [["wait", "../x"], 'error: Invalid work item id: "../x"'],
      [["wait", "E001", "E002"], 'error: Unexpected argument: "E002"'],
      [["wait", "E001", "--timeout", "10"], "error: --timeout must be a duration"],
      [["wait", "E001", "--timeout", "-1s"], "error: "],
      [["wait", "E001", "--timeout", "1w"], "error: --timeout must be a duration"],
      [["wait", "E001", "--timeout"], 'error: Missing value for "--timeout"'],
      [["wait", "E001", "--as", "W2"], 'error: Unknown option: "--as"'],
    ];
    for (const [args, start] of cases) {
      const r = await repo.coord("W1", args);
      assertEquals(r.code, 2, `${args.join(" ")}: ${show(r)}`);
      assertEquals(r.stdout, "");
      const lines = r.stderr.trimEnd().split("\n");
      assertEquals(lines.length, 2, show(r));
      assertOk(lines[0]!.startsWith(start), `${args.join(" ")}: ${show(r)}`);
      assertEquals(lines[1], "hint: run 'coord --help'");
    }
    const help = await repo.coord("W1", ["--help"]);
    assertOk(help.stdout.includes("coord wait    <WORK_ITEM> [--timeout DURATION] [--json]"));
    assertOk(help.stdout.includes("5 wait timed out"));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord wait: an arrival the caller may not see never ends the wait early", () => {
  // An older message became visible (say, by a release) and a hidden one just arrived:
  // the arrival must not report it; the next grid check does, as without the arrival.
  const waiting = ["E001-M0001"];
  assertEquals(wakeWith({ kind: "arrival", ids: new Set(["E001-M0002"]) }, waiting), undefined);
  assertEquals(wakeWith({ kind: "arrival", ids: new Set() }, waiting), undefined);
  assertEquals(wakeWith({ kind: "check" }, waiting), waiting);
  assertEquals(
    wakeWith({ kind: "arrival", ids: new Set(["E001-M0003"]) }, ["E001-M0001", "E001-M0003"]),
    ["E001-M0001", "E001-M0003"],
  );
});

// ---------------------------------------------------------------------------------------
// The wait loop in simulated time: when and with what it returns must not depend on
// arrivals it does not report. Virtual clock, so no timing assertion on the machine.

/** A scenario: when each message starts waiting for the caller, and what arrives when. */
interface Scenario {
  /** Message id → virtual time from which it is waiting (visible, addressed, unacked). */
  waitingFrom: Record<string, number>;
  /** File events: at a virtual time, these ids arrived. */
  arrivals: Array<{ at: number; ids: string[] }>;
}

/** A check costs this much virtual time (and sees the state at its start). */
const CHECK_COST = 300;

async function simulate(scenario: Scenario, timeoutMs: number) {
  let t = 0;
  const queue = [...scenario.arrivals].sort((a, b) => a.at - b.at);
  const take = (until: number) => {
    const ids = new Set<string>();
    while (queue.length > 0 && queue[0]!.at <= until) {
      for (const id of queue.shift()!.ids) ids.add(id);
    }
    return ids;
  };
  const ids = await waitLoop({
    now: () => t,
    check: () => {
      const seen = t;
      t += CHECK_COST;
      return Promise.resolve(
        Object.entries(scenario.waitingFrom).filter(([, from]) => from <= seen).map(([id]) => id)
          .sort(),
      );
    },
    next: (ms) => {
      const first = queue[0];
      if (first !== undefined && first.at <= t + ms) {
        t = Math.max(t, first.at);
        return Promise.resolve(take(t));
      }
      t += ms;
      return Promise.resolve(undefined);
    },
    drain: () => void take(t),
  }, timeoutMs);
  return { at: t, ids };
}

/** Deterministic pseudo-random hidden arrival patterns (a linear congruential generator). */
function hiddenPatterns(count: number, span: number): Array<Array<{ at: number; ids: string[] }>> {
  let x = 12345;
  const rand = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, p) =>
    Array.from({ length: 1 + (p % 12) }, (_, i) => ({
      at: Math.floor(rand() * span),
      ids: [`E001-M${String(100 + p * 20 + i).padStart(4, "0")}`],
    })));
}

Deno.test("coord wait loop: hidden arrivals change neither when nor with what it returns", async () => {
  // O was sent earlier and becomes visible at 2500 (a release): no file appears for it.
  const released: Scenario = { waitingFrom: { "E001-M0001": 2500 }, arrivals: [] };
  const baseline = await simulate(released, 60_000);
  assertEquals(baseline.ids, ["E001-M0001"]);
  assertEquals(baseline.at, 2 * RECHECK_MS + CHECK_COST, "the grid check after the release");
  // Nothing ever waits: the deadline.
  const quiet: Scenario = { waitingFrom: {}, arrivals: [] };
  const timedOut = await simulate(quiet, 5000);
  assertEquals(timedOut.ids, undefined);
  // A visible arrival wakes at once.
  const sent: Scenario = {
    waitingFrom: { "E001-M0002": 700 },
    arrivals: [{ at: 700, ids: ["E001-M0002"] }],
  };
  const woke = await simulate(sent, 60_000);
  assertEquals(woke, { at: 700 + CHECK_COST, ids: ["E001-M0002"] });

  for (const base of [released, quiet, sent]) {
    const expected = await simulate(base, base === quiet ? 5000 : 60_000);
    for (const hidden of hiddenPatterns(40, 8000)) {
      const scenario = { ...base, arrivals: [...base.arrivals, ...hidden] };
      const got = await simulate(scenario, base === quiet ? 5000 : 60_000);
      const what = JSON.stringify({ base, hidden, got, expected });
      assertEquals(got.ids, expected.ids, what);
      // Never earlier; later at most by the one hidden check it was busy with.
      assertOk(got.at >= expected.at, `returned earlier because of a hidden arrival: ${what}`);
      assertOk(got.at <= expected.at + CHECK_COST, `returned later than one check: ${what}`);
    }
  }
});
