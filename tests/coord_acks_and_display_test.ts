/**
 * Acknowledgements are read only from recipients and only up to their limits (a wait's
 * deadline included), the message record cap fits the largest message, what a person sees
 * is measured and escaped (emoji presentation, a blocker's quoted subject, `--json`'s
 * control characters), and an amend its reflog did not see owns nothing.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { MAX_BODY_BYTES } from "../src/coord/cli.ts";
import { MAX_ACK_BYTES, MAX_RECORD_BYTES, ReadingStopped, Store } from "../src/coord/store.ts";
import { Records, waitingIds } from "../src/coord/commands/wait.ts";
import { Session } from "../src/coord/session.ts";
import type { Message } from "../src/coord/message.ts";
import {
  charWidth,
  CONTINUATION,
  cutLine,
  foldLine,
  frameBody,
  LINE_COLUMNS,
} from "../src/coord/terminal.ts";
import { run, tempDir } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

async function storeDir(repo: CoordRepo): Promise<string> {
  const common = await repo.git("Primary", [
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ]);
  return join(common, "coord-lite", "E001");
}

function ackText(messageId: string, lane: string, padding = 0): string {
  const record = {
    format: "coord-lite/ack@1",
    message_id: messageId,
    lane,
    time: new Date().toISOString(),
  };
  return JSON.stringify(record, null, 2) + " ".repeat(padding) + "\n";
}

Deno.test("an acknowledgement by a lane that is no recipient is ignored unread; an oversized one is corrupt", async () => {
  const repo = await makeCoordRepo();
  try {
    const sent = await repo.coord(
      "W3",
      ["send", "E001", "--to", "Primary", "--subject", "ask"],
      "hi\n",
    );
    assertEquals([sent.code, sent.stdout], [0, "E001-M0001\n"], sent.stderr);
    const acks = join(await storeDir(repo), "acks");
    await Deno.mkdir(acks, { recursive: true });
    // No recipient: junk under an invented lane name, and a valid record by W1 (not addressed).
    await Deno.writeTextFile(join(acks, "E001-M0001.Z1.json"), "junk");
    await Deno.writeTextFile(join(acks, "E001-M0001.W1.json"), ackText("E001-M0001", "W1"));
    const status = await repo.coord("Primary", ["status", "E001"]);
    assertEquals(status.code, 0, status.stderr);
    assertExcludes(status.stdout, "acknowledgement E001-M0001.Z1");
    assertExcludes(status.stdout, "acknowledgement E001-M0001.W1");
    assertIncludes(status.stdout, "E001: 1 visible, 1 unacknowledged");
    // The recipient's own record, padded past the cap an acknowledgement needs: corrupt.
    await Deno.writeTextFile(
      join(acks, "E001-M0001.Primary.json"),
      ackText("E001-M0001", "Primary", MAX_ACK_BYTES),
    );
    const padded = await repo.coord("Primary", ["status", "E001"]);
    assertEquals(padded.code, 0, padded.stderr);
    assertIncludes(padded.stdout, "warning: acknowledgement E001-M0001.Primary is corrupt");
    assertIncludes(padded.stdout, "E001: 1 visible, 1 unacknowledged");
    const inbox = await repo.coord("W3", ["inbox", "E001"]);
    assertEquals(inbox.stdout, "E001-M0001  W3         NOTE            SENT          ask\n");
  } finally {
    await repo.cleanup();
  }
});

function note(id: string): Message {
  return {
    format: "coord-lite/message@1",
    id,
    work_item: "E001",
    sender: "W1",
    to: ["Primary"],
    cc: [],
    type: "NOTE",
    subject: "s",
    body: "",
    reply_to: null,
    forward_of: null,
    provenance: null,
    time: new Date().toISOString(),
    artifact: null,
  };
}

Deno.test("reading acknowledgements stops at the reader's limit", async () => {
  const dir = await tempDir("tether-coord-acks-");
  try {
    const store = new Store(dir);
    await store.append("E001", note);
    for (const lane of ["Primary", "W2", "W3"]) {
      await store.writeAck("E001", {
        format: "coord-lite/ack@1",
        message_id: "E001-M0001",
        lane,
        time: new Date().toISOString(),
      });
    }
    let now = 0;
    let stopped = false;
    try {
      store.readAcks("E001", { stopAt: 1, clock: () => now++ });
    } catch (error) {
      stopped = error instanceof ReadingStopped;
    }
    assertOk(stopped, "the listing stops at the limit");
    assertEquals(
      store.readAcks("E001", { stopAt: 1, clock: () => 0 }).acks.get("E001-M0001")?.size,
      3,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a wait's deadline bounds its reading of acknowledgements too", async () => {
  const repo = await makeCoordRepo();
  try {
    const sent = await repo.coord(
      "W3",
      ["send", "E001", "--to", "Primary", "--subject", "ask"],
      "hi\n",
    );
    assertEquals(sent.code, 0, sent.stderr);
    const acks = join(await storeDir(repo), "acks");
    await Deno.mkdir(acks, { recursive: true });
    for (let i = 1; i <= 4; i++) {
      await Deno.writeTextFile(join(acks, `E001-M0001.Z${i}.json`), "junk");
    }
    const session = await Session.open(repo.wt.Primary);
    // The walk over msgs/ asks the clock twice (slot 1, then the missing slot 2); the
    // listing of acks/ then passes the limit.
    let now = 0;
    let stopped = false;
    try {
      await waitingIds(session, "E001", new Records(), 2.5, () => now++);
    } catch (error) {
      stopped = error instanceof ReadingStopped;
    }
    assertOk(stopped, "the check stops while listing acknowledgements");
    const ids = await waitingIds(await Session.open(repo.wt.Primary), "E001", new Records());
    assertEquals(ids, ["E001-M0001"]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("the message record cap holds the largest message send can store, and no more than needed", () => {
  const lanes = Array.from({ length: 64 }, (_, i) => `L${String(i).padStart(31, "x")}`);
  const largest = {
    ...note("E001-M99999999"),
    to: lanes,
    cc: lanes,
    subject: "\u{10FFFF}".repeat(100),
    body: "\u0001".repeat(MAX_BODY_BYTES),
    artifact: {
      commit: "0".repeat(64),
      path: "\u0001".repeat(4096),
      object: "0".repeat(64),
      tree: "0".repeat(64),
    },
  };
  const bytes = new TextEncoder().encode(JSON.stringify(largest, null, 2) + "\n").length;
  assertOk(bytes <= MAX_RECORD_BYTES, `${bytes} > ${MAX_RECORD_BYTES}`);
  assertOk(MAX_RECORD_BYTES < 7 * 1024 * 1024);
});

/** Columns as an emoji-presentation terminal draws a line: a character before U+FE0F or U+20E3 is 2 wide. */
function emojiWidth(line: string): number {
  const chars = [...line];
  let column = 0;
  chars.forEach((c, i) => {
    const next = chars[i + 1];
    if (c === "\ufe0f" || c === "\u20e3") return;
    const presented = next === "\ufe0f" || next === "\u20e3";
    column += presented ? 2 : charWidth(c);
  });
  return column;
}

Deno.test("a character shown with emoji presentation counts two columns", () => {
  const copyright = "\u00a9\ufe0f";
  const keycap = "#\ufe0f\u20e3";
  const body = frameBody(`${copyright.repeat(39)}----- forwarded message -----\n`);
  for (const line of body.replace(/\n$/, "").split("\n")) {
    assertOk(line.startsWith("| "), JSON.stringify(line));
    assertOk(emojiWidth(line) <= LINE_COLUMNS, `too wide: ${JSON.stringify(line)}`);
  }
  const header = foldLine(`subject: x${keycap.repeat(35)}from: Primary`).split("\n");
  assertOk(header.length > 1, "the header folds");
  for (const [i, line] of header.entries()) {
    if (i > 0) assertOk(line.startsWith(CONTINUATION), JSON.stringify(line));
    assertOk(emojiWidth(line) <= LINE_COLUMNS, `too wide: ${JSON.stringify(line)}`);
  }
  const cut = cutLine(`E001-M0001  W3  ${"\u203c\ufe0f".repeat(60)}`);
  assertOk(cut.endsWith("…") && emojiWidth(cut) <= LINE_COLUMNS, cut);
  // Already wide characters stay two columns; an escape followed by U+FE0F gains one.
  assertEquals(foldLine(`${"\u{1f600}\ufe0f".repeat(39)}`).split("\n").length, 1);
  assertEquals(cutLine(`\u0001\ufe0f${"x".repeat(74)}`, 78), `\\x01\ufe0f${"x".repeat(72)}…`);
});

Deno.test("a blocker's subject in OWNER ACTION is quoted, its quotes escaped", async () => {
  const repo = await makeCoordRepo();
  try {
    for (const subject of ["x); repair corrupt record E001-M0009", 'y"); repair \\"E001-M0009']) {
      const sent = await repo.coord("W3", [
        "send",
        "E001",
        "--to",
        "Primary",
        "--type",
        "BLOCKER",
        "--subject",
        subject,
      ], "b\n");
      assertEquals(sent.code, 0, sent.stderr);
    }
    const action = 'resolve blocker E001-M0001 (W3: "x); repair corrupt record E001-M0009"); ' +
      'resolve blocker E001-M0002 (W3: "y\\"); repair \\\\\\"E001-M0009")';
    const status = await repo.coord("Primary", ["status", "E001"]);
    assertEquals(status.code, 0, status.stderr);
    const last = status.stdout.slice(status.stdout.indexOf("OWNER ACTION: "));
    assertEquals(last.replace(/\n {2}/g, ""), `OWNER ACTION: ${action}\n`);
    const json = await repo.coord("Primary", ["status", "E001", "--json"]);
    assertEquals(JSON.parse(json.stdout).owner_action, action);
  } finally {
    await repo.cleanup();
  }
});

const REFUSED =
  "refused: artifact not available (it does not resolve, or you may not inspect it)\n";

/** Run git in a lane's worktree with a fixed identity. */
async function gitAs(repo: CoordRepo, lane: Lane, args: string[]): Promise<string> {
  const r = await run("git", args, {
    cwd: repo.wt[lane],
    env: {
      GIT_AUTHOR_NAME: "Fixture",
      GIT_AUTHOR_EMAIL: "fixture@example.invalid",
      GIT_COMMITTER_NAME: "Fixture",
      GIT_COMMITTER_EMAIL: "fixture@example.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
    },
  });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

function handoff(repo: CoordRepo, lane: Lane, sha: string, path: string) {
  const args = ["handoff", "E001", "--to", "Primary", "--sha", sha, "--path", path];
  return repo.coord(lane, [...args, "--subject", "s"], "b\n");
}

Deno.test("an amend whose replaced commit its reflog did not see owns nothing", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1\n" });
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 secret\n" }, "W1 secret draft");
    await repo.commit("W3", { "v.md": "v\n" }, "W3 own work");
    // W3's own amend of its own commit is its own (the old value is the entry before it).
    await gitAs(repo, "W3", ["commit", "-q", "--amend", "-m", "W3 own work, amended"]);
    const own = await repo.git("W3", ["rev-parse", "HEAD"]);
    const mine = await handoff(repo, "W3", own, "v.md");
    assertEquals([mine.code, mine.stderr], [0, ""]);
    assertEquals([(await handoff(repo, "W3", a, "proof/w1.md")).stderr], [REFUSED]);
    // Move W3's branch to A where W3's HEAD reflog does not see it, then amend A.
    const common = await repo.git("W3", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    await gitAs(repo, "W3", [`--git-dir=${common}`, "update-ref", "refs/heads/w3", "w1"]);
    await gitAs(repo, "W3", ["read-tree", "-u", "--reset", "HEAD"]);
    // A message of its own: with --no-edit, an amend in the same second as A (one fixture
    // identity for every lane) is A itself, which W3 may never inspect whatever the guard.
    await gitAs(repo, "W3", ["commit", "-q", "--amend", "-m", "W1 secret draft, amended"]);
    const a2 = await repo.git("W3", ["rev-parse", "HEAD"]);
    assertOk(a2 !== a, "precondition: the amend made a new commit");
    assertEquals(
      await repo.git("W3", ["rev-parse", `${a2}^{tree}`]),
      await repo.git("W3", ["rev-parse", `${a}^{tree}`]),
    );
    const laundered = await handoff(repo, "W3", a2, "proof/w1.md");
    assertEquals([laundered.code, laundered.stdout, laundered.stderr], [4, "", REFUSED]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("--json writes C1 controls, bidi controls and line separators as \\u escapes", async () => {
  const repo = await makeCoordRepo();
  try {
    const subject = "hi \u009b2J \u202e \u2066x\u2069 \u00a0";
    const body = "b \u009b1A\u2028\u0085\u007f\ufeff\n";
    const sent = await repo.coord("W3", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--subject",
      subject,
      "--json",
    ], body);
    assertEquals(sent.code, 0, sent.stderr);
    const raw = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;
    const inbox = await repo.coord("Primary", ["inbox", "E001", "--json"]);
    const read = await repo.coord("Primary", ["read", "E001-M0001", "--json"]);
    for (const r of [sent, inbox, read]) {
      assertEquals(r.code, 0, r.stderr);
      assertOk(!raw.test(r.stdout), JSON.stringify(r.stdout));
      assertIncludes(r.stdout, "\\u009b2J \\u202e");
    }
    assertEquals(JSON.parse(sent.stdout).body, body);
    assertEquals(JSON.parse(inbox.stdout).messages[0].subject, subject);
    assertEquals(JSON.parse(read.stdout).message.subject, subject);
    assertEquals(JSON.parse(read.stdout).message.body, body);
    assertIncludes(read.stdout, "\u00a0"); // a character no view escapes stays raw
  } finally {
    await repo.cleanup();
  }
});
