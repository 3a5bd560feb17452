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
 * In the table: `deno task bench --only coord`. Alone, in the source form:
 * `deno run --allow-run --allow-read --allow-write --allow-env scripts/bench_coord.ts`.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { seqFileName, STORE_DIR } from "../src/coord/store.ts";
import { AckSchema, type Message, MessageSchema } from "../src/coord/message.ts";
import { formatMessageId } from "../src/coord/ids.ts";
import {
  alternate,
  formNote,
  type GitShim,
  gitShim,
  median,
  type Row,
  table,
  tetherArgv,
  wall,
} from "./_bench.ts";

const MESSAGES = 10_000;
const LANES = 20;
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

/** Run coord once (through the shim when `env` puts it first on PATH). */
async function coord(cwd: string, args: string[], env: Record<string, string> = {}) {
  const [program, argv] = tetherArgv("coord", args);
  const out = await new Deno.Command(program, {
    args: argv,
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).output();
  if (out.code !== 0) {
    throw new Error(`coord ${args.join(" ")} exited ${out.code}: ${decoder.decode(out.stderr)}`);
  }
}

/** A repository of 10,000 commits (by `git fast-import`): git's own listing of as many items. */
async function commitLog(root: string): Promise<string> {
  const repo = join(root, "log-baseline");
  await Deno.mkdir(repo);
  await git(repo, ["init", "-q", "-b", "main"]);
  const stream = Array.from(
    { length: MESSAGES },
    (_, i) =>
      `commit refs/heads/main\ncommitter Bench <b@example.invalid> ${1_700_000_000 + i} +0000\n` +
      `data <<END\nmessage ${i + 1}\nEND\n\n`,
  ).join("");
  const child = new Deno.Command("git", {
    args: ["-C", repo, "fast-import", "--quiet"],
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stream));
  await writer.close();
  const out = await child.output();
  if (out.code !== 0) throw new Error(`git fast-import: ${decoder.decode(out.stderr)}`);
  return repo;
}

const GIT_LOG = "`git log --format='%h %an %s'` over 10,000 commits";

/**
 * Run the coord bench.
 *
 * @param shim The git shim that counts processes.
 * @returns One row per measurement.
 */
export async function benchCoord(shim: GitShim): Promise<Row[]> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-bench-coord-" }));
  try {
    const { main, dirs, lanes, commits } = await buildRepo(root);
    await writeMessages(main, lanes, commits);
    const log = await commitLog(root);
    const gitLog = () =>
      new Deno.Command("git", { args: ["-C", log, "log", "--format=%h %an %s"], stdout: "null" })
        .output();
    const rows: Row[] = [];
    const cases: Array<[string, string, string[]]> = [
      ["inbox", "Primary", ["inbox", "E001"]],
      ["inbox", "W3", ["inbox", "E001"]],
      ["inbox", "W10", ["inbox", "E001"]],
      ["status", "Primary", ["status"]],
      ["status", "W1", ["status"]],
    ];
    for (const [what, lane, args] of cases) {
      const dir = dirs[lanes.indexOf(lane)]!;
      const timed = await alternate(3, () => coord(dir, args), gitLog);
      rows.push({
        name: `\`coord ${what}\` (${formNote()}) as ${lane}, ${
          MESSAGES.toLocaleString("en")
        } messages, ${LANES} lanes`,
        ...timed,
        baselineCommand: GIT_LOG,
        target: what === "inbox" ? { kind: "wall", maxMs: 1000 } : { kind: "none" },
        git: await shim.count(() => coord(dir, args, shim.env)),
      });
    }
    rows.push(...await benchWait(main, dirs[lanes.indexOf(WAITER)]!));
    return rows;
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

/** The lane that waits in the wake-up bench (not blind; Primary and blind W1 may write to it). */
const WAITER = "W10";
/** Wake-ups measured per work item. */
const WAKES = 3;

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
  const [program, argv] = tetherArgv("coord", args);
  return new Deno.Command(program, {
    args: argv,
    cwd,
    stdin,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
}

/**
 * `coord wait` wake-up: the waiter blocks (given twice as long as a whole `coord inbox`
 * there takes, at least 3 s, to start and make its first check), Primary sends it a
 * message, and the time from the send's return to the wait's return is the wake-up.
 * {@linkcode WAKES} rounds per work item; each message is acknowledged before the next.
 *
 * @param main Primary's worktree.
 * @param waiter The waiting lane's worktree.
 * @returns One row per work item.
 */
async function benchWait(main: string, waiter: string): Promise<Row[]> {
  await ackAll(main, "E001", WAITER);
  const rows: Row[] = [];
  for (const [workItem, what] of [["E002", "an empty work item"], ["E001", "10,000 messages"]]) {
    const polls: number[] = [];
    for (let i = 0; i < 3; i++) polls.push(await wall(() => coord(waiter, ["inbox", workItem!])));
    const settle = Math.max(3000, 2 * median(polls));
    const wakes: number[] = [];
    for (let round = 0; round < WAKES; round++) {
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
    const worst = Math.max(...wakes);
    rows.push({
      name: `\`coord wait\` as ${WAITER} wakes after a \`coord send\`, ${what}`,
      tether: median(wakes),
      baseline: median(polls),
      baselineCommand:
        `one \`coord inbox\` there (what one poll costs); the target is the worst of ${WAKES} wake-ups`,
      target: { kind: "wall", maxMs: 1000, worst },
    });
  }
  return rows;
}

if (import.meta.main) {
  const shim = await gitShim();
  try {
    for (const line of table(await benchCoord(shim))) console.log(line);
  } finally {
    await shim.remove();
  }
}
