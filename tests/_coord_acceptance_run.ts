/**
 * Running `coord` in the seed 003 acceptance scenario (`_coord_acceptance_fixture.ts`) and
 * asserting what it answers: the helpers the acceptance test files share
 * (`coord_acceptance_test.ts`, `coord_acceptance_release_test.ts`,
 * `coord_acceptance_hostile_test.ts`).
 *
 * @module
 */
import { assertEquals, assertExcludes, assertOk } from "../src/_assert.ts";
import { bin, type Run } from "./_helpers.ts";
import {
  buildScenario,
  type LaneName,
  type Policy,
  removeScenario,
  type Scenario,
} from "./_coord_acceptance_fixture.ts";

/** The one refusal for every unauthorised, malformed, abbreviated, symbolic or missing artifact. */
export const REFUSAL =
  "refused: artifact not available (it does not resolve, or you may not inspect it)";
/** The one answer for a message id that does not exist or that the caller may not see (docs/coord.md). */
export const MESSAGE_REFUSAL =
  "refused: message not available (it does not exist, or you may not read it)";
/** The exit code every refusal shares (docs/coord.md). */
export const EXIT_REFUSED = 4;
export const WI = "E001";
export const ID_RE = /^E001-M\d{4,}$/;
/** A well-formed message id that no scenario ever reaches. */
export const MISSING_ID = "E001-M9999";
/** A well-formed full SHA-1 that names no object. */
export const NO_SUCH_SHA = "0123456789abcdef0123456789abcdef01234567";
/** Anything that looks like an object id. */
export const HEXISH = /[0-9a-f]{7,}/i;

// ---------------------------------------------------------------------------------------
// Running coord

export function show(r: Run): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
}

/** Run coord as a lane (its worktree is the current directory). */
export function coord(
  s: Scenario,
  lane: LaneName,
  args: string[],
  body?: string,
  env?: Record<string, string>,
): Promise<Run> {
  return coordIn(s.dir[lane], args, body, env);
}

/** Run coord in any directory. */
export function coordIn(
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
export async function parallel<T>(tasks: Array<() => Promise<T>>, limit = 4): Promise<T[]> {
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
export const SENDERS = new Map<string, LaneName>();

export function expectId(r: Run, what: string, s?: Scenario, from?: LaneName): string {
  assertEquals(r.code, 0, `${what} must succeed\n${show(r)}`);
  const id = r.stdout.trim();
  assertOk(ID_RE.test(id), `${what} must print the new message id, got\n${show(r)}`);
  if (s !== undefined && from !== undefined) SENDERS.set(`${s.root}\n${id}`, from);
  return id;
}

/** `send` that must succeed; returns the new id. */
export async function send(
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

export function handoffArgs(to: string, sha: string, path: string, subject = "handoff"): string[] {
  return ["handoff", WI, "--to", to, "--sha", sha, "--path", path, "--subject", subject];
}

/** `handoff` that must succeed; returns the new id. */
export async function handoff(
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
export function assertDenied(r: Run, what: string): void {
  assertEquals(r.code, EXIT_REFUSED, `${what} must be refused\n${show(r)}`);
  assertOk(!/E001-M\d+/.test(r.stdout), `${what} must not create a message\n${show(r)}`);
}

/** `send` that must be refused. */
export async function sendDenied(
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
export async function handoffDenied(
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
export async function inbox(s: Scenario, lane: LaneName, extra: string[] = []): Promise<string[]> {
  return (await inboxRaw(s, lane, extra)).filter((id) => SENDERS.get(`${s.root}\n${id}`) !== lane);
}

/** Every id a lane's inbox lists (the first id on each line). */
export async function inboxRaw(
  s: Scenario,
  lane: LaneName,
  extra: string[] = [],
): Promise<string[]> {
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
export async function inboxLine(s: Scenario, lane: LaneName, id: string): Promise<string> {
  const r = await coord(s, lane, ["inbox", WI]);
  assertEquals(r.code, 0, show(r));
  const line = r.stdout.split("\n").find((l) => l.includes(id));
  assertOk(line !== undefined, `${lane} inbox must list ${id}\n${show(r)}`);
  return line;
}

/** `read` that must succeed; returns stdout. */
export async function read(s: Scenario, lane: LaneName, id: string, json = false): Promise<string> {
  const r = await coord(s, lane, ["read", id, ...(json ? ["--json"] : [])]);
  assertEquals(r.code, 0, `${lane} read ${id} must succeed\n${show(r)}`);
  return r.stdout;
}

export function normalise(r: Run, id: string): Run {
  return {
    code: r.code,
    stdout: r.stdout.replaceAll(id, "<ID>"),
    stderr: r.stderr.replaceAll(id, "<ID>"),
  };
}

/** The answer to each command naming {@linkcode MISSING_ID}, per scenario and lane (run once). */
export const MISSING_ANSWERS = new Map<string, Run>();

/**
 * A command naming a message id the lane may not see must be answered exactly as the same
 * command naming an id that does not exist (the id itself may be echoed).
 */
export async function assertLikeMissing(
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
export async function assertMessageUnseen(
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
export async function referenceRefusal(
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

export function assertRefusal(r: Run, what: string): void {
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
export interface Probe {
  label: string;
  sha: string;
  path: string;
}

/**
 * Each probe, a handoff from `lane` to `to`, must be refused byte for byte like a handoff of
 * a nonexistent full SHA (stdout, stderr, exit code).
 */
export async function assertProbesRefused(
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
export async function everythingVisibleTo(s: Scenario, lane: LaneName): Promise<string> {
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
export async function statusText(s: Scenario, lane: LaneName): Promise<string> {
  const [text, json] = await Promise.all([
    coord(s, lane, ["status", WI]),
    coord(s, lane, ["status", WI, "--json"]),
  ]);
  assertEquals(text.code, 0, show(text));
  return [text.stdout, text.stderr, json.stdout, json.stderr].join("\n");
}

export function short(sha: string, n = 7): string {
  return sha.slice(0, n);
}

/** Build a scenario, run the body, always clean up. */
export async function withScenario(
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

export function released(...pairs: Array<[string, string]>): Policy {
  return { blind: ["W1", "W2"], released: pairs };
}
