/**
 * Bench for `coord` (SPEC §7): 10,000 messages over 20 lanes in one work item, then
 * `coord inbox` and `coord status` timed as real processes under coord's exact flags,
 * with the number of git processes each starts (counted by a `git` shim first on PATH that
 * logs each call and runs the real git; coord itself prints no such count).
 *
 * Also `coord wait`'s wake-up: how soon a waiting lane's `coord wait` returns after
 * another lane's `coord send` to it returned (target: within 1 s), in an empty work item
 * and in the one of 10,000 messages.
 *
 * Run alone: `deno run --allow-run --allow-read --allow-write --allow-env scripts/bench_coord.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { PERMISSIONS } from "../src/permissions.ts";
import { seqFileName, STORE_DIR } from "../src/coord/store.ts";
import { AckSchema, type Message, MessageSchema } from "../src/coord/message.ts";
import { formatMessageId } from "../src/coord/ids.ts";

const MESSAGES = 10_000;
const LANES = 20;
const ROOT = new URL("..", import.meta.url).pathname;
const decoder = new TextDecoder();

async function git(cwd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", cwd, ...args],
    env: {
      GIT_AUTHOR_NAME: "Bench",
      GIT_AUTHOR_EMAIL: "b@example.invalid",
      GIT_COMMITTER_NAME: "Bench",
      GIT_COMMITTER_EMAIL: "b@example.invalid",
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) throw new Error(`git ${args.join(" ")}: ${decoder.decode(out.stderr)}`);
  return decoder.decode(out.stdout).trim();
}

/** Build the repository: Primary plus W1..W19, one commit per lane, W1..W5 blind, W1 released. */
async function buildRepo(
  root: string,
): Promise<{ main: string; dirs: string[]; lanes: string[]; commits: Map<string, string> }> {
  const main = join(root, "Primary");
  await Deno.mkdir(main, { recursive: true });
  await git(main, ["init", "-q", "-b", "main"]);
  await git(main, ["config", "commit.gpgsign", "false"]);
  await Deno.writeTextFile(join(main, "README.md"), "bench\n");
  await git(main, ["add", "-A"]);
  await git(main, ["commit", "-q", "-m", "base"]);
  const base = await git(main, ["rev-parse", "HEAD"]);
  const lanes = ["Primary"];
  const dirs = [main];
  const commits = new Map<string, string>();
  for (let i = 1; i < LANES; i++) {
    const lane = `W${i}`;
    const dir = join(root, lane);
    await git(main, ["worktree", "add", "-q", "-b", lane.toLowerCase(), dir, base]);
    await Deno.writeTextFile(join(dir, "result.md"), `${lane} result\n`);
    await git(dir, ["add", "-A"]);
    await git(dir, ["commit", "-q", "-m", `${lane} result`]);
    commits.set(lane, await git(dir, ["rev-parse", "HEAD"]));
    lanes.push(lane);
    dirs.push(dir);
  }
  const status = [
    ...lanes.slice(1).map((l) => `lane: ${l} ../${l}`),
    `base: ${base}`,
    "blind: W1 W2 W3 W4 W5",
    `released: W1 ${commits.get("W1")}`,
  ];
  await Deno.writeTextFile(join(main, "STATUS"), status.join("\n") + "\n");
  await git(main, ["add", "STATUS"]);
  await git(main, ["commit", "-q", "-m", "STATUS"]);
  return { main, dirs, lanes, commits };
}

/** Write the messages straight into the store files (validated by the message schema). */
async function writeMessages(
  main: string,
  lanes: string[],
  commits: Map<string, string>,
): Promise<void> {
  const msgs = join(main, ".git", STORE_DIR, "E001", "msgs");
  await Deno.mkdir(msgs, { recursive: true });
  const tree = await git(main, ["rev-parse", `${commits.get("W7")}^{tree}`]);
  const blobs = new Map<string, string>();
  for (const [lane, c] of commits) {
    blobs.set(lane, await git(main, ["rev-parse", `${c}:result.md`]));
  }
  for (let seq = 1; seq <= MESSAGES; seq++) {
    const sender = lanes[seq % LANES]!;
    const to = sender === "Primary" ? lanes[(seq * 7) % (LANES - 1) + 1]! : "Primary";
    const handoff = seq % 10 === 0 && sender !== "Primary";
    const message: Message = {
      format: "coord-lite/message@1",
      id: formatMessageId("E001", seq),
      work_item: "E001",
      sender,
      to: [to],
      cc: seq % 13 === 0 ? [lanes[(seq % 5) + 10]!] : [],
      type: handoff ? "HANDOFF" : "NOTE",
      subject: `message ${seq}`,
      body: `body of message ${seq}\n`,
      reply_to: seq > 1 && seq % 3 === 0 ? formatMessageId("E001", seq - 1) : null,
      forward_of: null,
      provenance: handoff ? "CLAIMED" : null,
      time: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      artifact: handoff
        ? { commit: commits.get(sender)!, path: "result.md", object: blobs.get(sender)!, tree }
        : null,
    };
    Deno.writeTextFileSync(
      join(msgs, seqFileName(seq)),
      JSON.stringify(MessageSchema.parse(message)) + "\n",
    );
  }
}

/** A `git` first on PATH that logs a line per call, then runs the real git. */
async function makeGitShim(root: string): Promise<{ path: string; log: string }> {
  const dir = join(root, "git-shim");
  const log = join(root, "git-calls.log");
  await Deno.mkdir(dir);
  const which = await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" })
    .output();
  const realGit = decoder.decode(which.stdout).trim();
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh\necho x >> '${log}'\nexec '${realGit}' "$@"\n`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  return { path: `${dir}:${Deno.env.get("PATH") ?? ""}`, log };
}

let shim: { path: string; log: string };

/** Run coord once; with `count`, through the shim (that run's time includes the shim's). */
async function timeCoord(
  cwd: string,
  args: string[],
  count = false,
): Promise<{ ms: number; git: number; lines: number }> {
  await Deno.remove(shim.log).catch(() => {});
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      ...PERMISSIONS.coord,
      join(ROOT, "coord.ts"),
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: count ? { NO_COLOR: "1", PATH: shim.path } : { NO_COLOR: "1" },
  }).output();
  const ms = performance.now() - start;
  const stderr = decoder.decode(out.stderr);
  if (out.code !== 0) throw new Error(`coord ${args.join(" ")} exited ${out.code}: ${stderr}`);
  const calls = (await Deno.readTextFile(shim.log).catch(() => "")).split("\n").filter(Boolean)
    .length;
  return {
    ms,
    git: count ? calls : NaN,
    lines: decoder.decode(out.stdout).split("\n").filter(Boolean).length,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Run the coord bench.
 *
 * @returns One result line per measurement, each saying whether it met SPEC §7.
 */
export async function benchCoord(): Promise<string[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-bench-coord-" }));
  try {
    const { main, dirs, lanes, commits } = await buildRepo(root);
    await writeMessages(main, lanes, commits);
    shim = await makeGitShim(root);
    const lines: string[] = [];
    const cases: Array<[string, string, string[]]> = [
      ["inbox", "Primary", ["inbox", "E001"]],
      ["inbox", "W3", ["inbox", "E001"]],
      ["inbox", "W10", ["inbox", "E001"]],
      ["status", "Primary", ["status"]],
      ["status", "W1", ["status"]],
    ];
    await timeCoord(main, ["inbox", "E001"]); // warm the module cache
    for (const [what, lane, args] of cases) {
      const runs = [];
      const dir = dirs[lanes.indexOf(lane)]!;
      for (let i = 0; i < 5; i++) runs.push(await timeCoord(dir, args));
      const counted = await timeCoord(dir, args, true);
      const ms = median(runs.map((r) => r.ms));
      const verdict = what === "inbox" ? (ms < 1000 ? "ok (< 1 s)" : "TOO SLOW (SPEC: < 1 s)") : "";
      lines.push(
        `coord ${what} as ${lane} over ${
          MESSAGES.toLocaleString("en")
        } messages, ${LANES} lanes: ` +
          `median ${ms.toFixed(0)} ms of 5, ${counted.git} git processes, ${
            runs[0]!.lines
          } lines ${verdict}`.trimEnd(),
      );
    }
    lines.push(...await benchWait(main, dirs[lanes.indexOf(WAITER)]!));
    return lines;
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** The lane that waits in the wake-up bench (not blind; Primary and blind W1 may write to it). */
const WAITER = "W10";

/** Acknowledge, straight in the store, every message of a work item addressed to a lane. */
async function ackAll(main: string, workItem: string, lane: string): Promise<void> {
  const dir = join(main, ".git", STORE_DIR, workItem);
  await Deno.mkdir(join(dir, "acks"), { recursive: true });
  for (const entry of Deno.readDirSync(join(dir, "msgs"))) {
    const message = MessageSchema.parse(
      JSON.parse(Deno.readTextFileSync(join(dir, "msgs", entry.name))),
    );
    if (!message.to.includes(lane) && !message.cc.includes(lane)) continue;
    const ack = { format: "coord-lite/ack@1", message_id: message.id, lane, time: message.time };
    await Deno.writeTextFile(
      join(dir, "acks", `${message.id}.${lane}.json`),
      JSON.stringify(AckSchema.parse(ack)) + "\n",
    );
  }
}

function coordProcess(cwd: string, args: string[], stdin: "null" | "piped" = "null") {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...PERMISSIONS.coord, join(ROOT, "coord.ts"), ...args],
    cwd,
    stdin,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

/**
 * `coord wait` wake-up: the waiter blocks (given twice as long as a whole `coord inbox`
 * there takes, at least 3 s, to start and make its first check), Primary sends it a message, and the time from the send's return to the wait's return is
 * the wake-up. Five rounds per work item; each message is acknowledged before the next.
 *
 * @param main Primary's worktree.
 * @param waiter The waiting lane's worktree.
 * @returns One result line per work item.
 */
async function benchWait(main: string, waiter: string): Promise<string[]> {
  await ackAll(main, "E001", WAITER);
  const lines: string[] = [];
  for (const [workItem, what] of [["E002", "an empty work item"], ["E001", "10,000 messages"]]) {
    const t = performance.now();
    await coordProcess(waiter, ["inbox", workItem!]).output();
    const settle = Math.max(3000, 2 * (performance.now() - t));
    const wakes: number[] = [];
    for (let round = 0; round < 5; round++) {
      const wait = coordProcess(waiter, ["wait", workItem!, "--timeout", "60s"]);
      const woke = wait.output().then((out) => ({ out, at: performance.now() }));
      await new Promise((r) => setTimeout(r, settle));
      const sender = coordProcess(
        main,
        ["send", workItem!, "--to", WAITER, "--subject", "wake"],
        "piped",
      );
      await sender.stdin.close();
      const sent = await sender.output();
      const sentAt = performance.now();
      const id = decoder.decode(sent.stdout).trim();
      const { out, at } = await woke;
      if (sent.code !== 0 || out.code !== 0 || decoder.decode(out.stdout).trim() !== id) {
        throw new Error(
          `coord wait round ${round}: send exit ${sent.code}, wait exit ${out.code}: ` +
            decoder.decode(out.stderr) + decoder.decode(sent.stderr),
        );
      }
      wakes.push(Math.max(0, at - sentAt));
      const ack = await coordProcess(waiter, ["ack", id]).output();
      if (ack.code !== 0) throw new Error(`coord ack ${id}: ${decoder.decode(ack.stderr)}`);
    }
    const ms = median(wakes);
    const worst = Math.max(...wakes);
    lines.push(
      `coord wait as ${WAITER}, ${what}: woke ${ms.toFixed(0)} ms (median of 5, worst ${
        worst.toFixed(0)
      } ms) after the send returned ${worst < 1000 ? "ok (< 1 s)" : "TOO SLOW (target: < 1 s)"}`,
    );
  }
  return lines;
}

if (import.meta.main) { for (const line of await benchCoord()) console.log(line); }
