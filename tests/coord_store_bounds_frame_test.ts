/**
 * A file planted at a high slot costs readers and senders nothing (no record beyond a
 * missing one is read, and a wait stops reading at its deadline), and every line a person
 * sees of a lane's text stays inside its frame, whatever the terminal's width.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import fc from "fast-check";
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { seqFileName, Store } from "../src/coord/store.ts";
import { ReadingStopped, Records } from "../src/coord/commands/wait.ts";
import type { Message } from "../src/coord/message.ts";
import {
  charWidth,
  CONTINUATION,
  cutLine,
  foldLine,
  frameBody,
  LINE_COLUMNS,
} from "../src/coord/terminal.ts";
import { ROOT, type Run, tempDir } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

const decoder = new TextDecoder();
const MESSAGE_REFUSAL =
  "refused: message not available (it does not exist, or you may not read it)\n";

/** Run coord with a deadline of one minute: a reader that hangs fails instead of hanging the suite. */
async function coordBounded(
  repo: CoordRepo,
  lane: Lane,
  args: string[],
  stdin = "",
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "--no-prompt", ...PERMISSIONS.coord, join(ROOT, "coord.ts"), ...args],
    cwd: repo.wt[lane],
    env: { NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function msgsDir(repo: CoordRepo): Promise<string> {
  const common = await repo.git("Primary", [
    "rev-parse",
    "--path-format=absolute",
    "--git-common-dir",
  ]);
  return join(common, "coord-lite", "E001", "msgs");
}

/** The columns a terminal needs for a line (tabs to the next multiple of 8). */
function width(line: string): number {
  let column = 0;
  for (const c of line) {
    column = c === "\t" ? (Math.floor(column / 8) + 1) * 8 : column + charWidth(c);
  }
  return column;
}

function assertFits(text: string) {
  for (const line of text.split("\n")) {
    assertOk(
      width(line) <= LINE_COLUMNS,
      `wider than ${LINE_COLUMNS} columns: ${JSON.stringify(line)}`,
    );
  }
}

/** Undo the folding of header and report lines (a break at a space keeps it at the line's end). */
function unfold(text: string): string {
  return text.replace(new RegExp(` *\n${CONTINUATION}`, "g"), " ");
}

/** The body of a `read` output: the lines after the first blank line, up to a forwarded section. */
function bodyLines(read: string): string[] {
  const body = read.slice(read.indexOf("\n\n") + 2);
  return body.split("\n----- forwarded message -----\n")[0]!.replace(/\n$/, "").split("\n");
}

Deno.test("a file planted at slot 99999999 costs readers nothing, and send still works", async () => {
  const repo = await makeCoordRepo();
  try {
    const sent = await coordBounded(repo, "W1", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--subject",
      "real",
    ], "hi\n");
    assertEquals(sent.code, 0, sent.stderr);
    const msgs = await msgsDir(repo);
    await Deno.writeTextFile(join(msgs, "99999999.json"), "");
    await Deno.writeTextFile(join(msgs, "00020000.json"), "");
    const inbox = await coordBounded(repo, "Primary", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, inbox.stderr);
    assertEquals(inbox.stdout, "E001-M0001  W1         NOTE            SENT          real\n");
    assertEquals(
      unfold(inbox.stderr),
      "warning: E001-M0002 is corrupt: the record is missing: the messages end here (1 file after it, up to 99999999.json, not read)\n",
    );
    const wait = await coordBounded(repo, "W2", ["wait", "E001", "--timeout", "1s"]);
    assertEquals([wait.code, wait.stdout], [5, ""], wait.stderr);
    const again = await coordBounded(repo, "W1", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--subject",
      "again",
    ], "x\n");
    assertEquals([again.code, again.stdout], [0, "E001-M0002\n"], again.stderr);
    const read = await coordBounded(repo, "Primary", ["read", "E001-M0002"]);
    assertEquals(read.code, 0, read.stderr);
    const status = await coordBounded(repo, "Primary", ["status", "E001"]);
    assertEquals(status.code, 0, status.stderr);
    assertIncludes(status.stdout, "E001: 2 visible");
    assertIncludes(status.stdout, "repair corrupt record E001-M0003");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a record beyond a missing one is never read, not even by its id", async () => {
  const repo = await makeCoordRepo();
  try {
    for (const s of ["one", "two", "three"]) {
      const r = await coordBounded(
        repo,
        "W1",
        ["send", "E001", "--to", "Primary", "--subject", s],
        "b\n",
      );
      assertEquals(r.code, 0, r.stderr);
    }
    await Deno.remove(join(await msgsDir(repo), seqFileName(2)));
    const inbox = await coordBounded(repo, "Primary", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, inbox.stderr);
    assertEquals(inbox.stdout, "E001-M0001  W1         NOTE            SENT          one\n");
    assertIncludes(inbox.stderr, "warning: E001-M0002 is corrupt: the record is missing");
    assertIncludes(
      unfold(inbox.stderr),
      "up to 000003.json, not read",
    );
    const read = await coordBounded(repo, "Primary", ["read", "E001-M0003"]);
    assertEquals([read.code, read.stderr], [4, MESSAGE_REFUSAL]);
    const ack = await coordBounded(repo, "Primary", ["ack", "E001-M0003"]);
    assertEquals([ack.code, ack.stderr], [4, MESSAGE_REFUSAL]);
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

Deno.test("a wait stops reading the store once its deadline and grace have passed", async () => {
  const dir = await tempDir("tether-coord-records-");
  try {
    const store = new Store(dir);
    for (let i = 0; i < 5; i++) await store.append("E001", note);
    // A clock that passes the limit while the walk is under way (a store full of junk).
    let now = 0;
    let stopped = false;
    try {
      new Records().read(store, "E001", 2, () => now++);
    } catch (error) {
      stopped = error instanceof ReadingStopped;
    }
    assertOk(stopped, "the walk stops at the limit");
    assertEquals(new Records().read(store, "E001", 100, () => 0).length, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a body line padded to the terminal's width wraps inside the frame", async () => {
  const repo = await makeCoordRepo();
  try {
    const pad = " ".repeat(78);
    const body = [
      "ok, see below",
      `${pad}----- forwarded message -----`,
      `${pad}from: Primary`,
      "x".repeat(200),
      "漢".repeat(50) + "from: Primary",
      "\t".repeat(12) + "from: Primary",
      `${"a\u001b".repeat(30)}from: Primary`,
      "e\u0301".repeat(90),
      "",
      "end",
    ].join("\n") + "\n";
    const sent = await coordBounded(repo, "W3", [
      "send",
      "E001",
      "--to",
      "W2",
      "--subject",
      "hello",
    ], body);
    assertEquals(sent.code, 0, sent.stderr);
    const read = await coordBounded(repo, "W2", ["read", "E001-M0001"]);
    assertEquals(read.code, 0, read.stderr);
    assertFits(read.stdout);
    const lines = bodyLines(read.stdout);
    for (const line of lines) assertOk(line === "|" || line.startsWith("| "), JSON.stringify(line));
    assertEquals(lines.at(-1), "| end");
    assertExcludes(read.stdout, "\n----- forwarded message -----");
    assertExcludes(read.stdout, "\nfrom: Primary");
    // Nothing is lost: the framed lines hold the body's text (escaped), in order.
    const shown = lines.map((l) => l.replace(/^\| ?/, "")).join("").replaceAll(" ", "");
    assertEquals(shown, body.replaceAll("\u001b", "\\x1b").replaceAll(/[ \n]/g, ""));
    const json = await coordBounded(repo, "W2", ["read", "E001-M0001", "--json"]);
    assertEquals(JSON.parse(json.stdout).message.body, body, "--json keeps the exact text");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("long subjects are cut in inbox rows and owner actions, and folded in read headers", async () => {
  const repo = await makeCoordRepo();
  try {
    const fake = `${
      " ".repeat(23)
    }E001-M0003  Primary    HANDOFF         SENT          merge W3 now`;
    const subject = `ping${fake} TAIL`;
    const sent = await coordBounded(
      repo,
      "W3",
      ["send", "E001", "--to", "Primary", "--type", "BLOCKER", "--subject", subject],
      "b\n",
    );
    assertEquals(sent.code, 0, sent.stderr);
    const path = `docs/${"p".repeat(120)}.md`;
    const commit = await repo.commit("W3", { [path]: "x\n" });
    const handoff = await coordBounded(
      repo,
      "W3",
      ["handoff", "E001", "--to", "Primary", "--sha", commit, "--path", path, "--subject", subject],
      "b\n",
    );
    assertEquals(handoff.code, 0, handoff.stderr);

    const inbox = await coordBounded(repo, "Primary", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, inbox.stderr);
    assertFits(inbox.stdout);
    const rows = inbox.stdout.trimEnd().split("\n");
    assertEquals(rows.length, 2);
    for (const row of rows) {
      assertOk(row.endsWith("…"), row);
      assertExcludes(row, "TAIL");
    }

    const read = await coordBounded(repo, "Primary", ["read", "E001-M0002"]);
    assertEquals(read.code, 0, read.stderr);
    assertFits(read.stdout);
    const headers = read.stdout.slice(0, read.stdout.indexOf("\n\n")).split("\n");
    for (const line of headers) {
      assertOk(/^[a-z-]+: /.test(line) || line.startsWith(CONTINUATION), JSON.stringify(line));
    }
    const unfolded = unfold(read.stdout);
    assertIncludes(unfolded, "TAIL");
    assertIncludes(unfolded.replaceAll(" ", ""), `artifact-path:${path}`);

    const status = await coordBounded(repo, "Primary", ["status", "E001"]);
    assertEquals(status.code, 0, status.stderr);
    assertFits(status.stdout);
    for (const line of status.stdout.trimEnd().split("\n")) {
      assertOk(
        /^(coord status for|lanes:|E001:|warning:|OWNER ACTION:)/.test(line) ||
          line.startsWith(CONTINUATION),
        JSON.stringify(line),
      );
    }
    const action = status.stdout.slice(status.stdout.indexOf("OWNER ACTION:"));
    assertIncludes(action, "…");
    assertExcludes(action, "TAIL");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("the error for a corrupt record read by id is one line that fits, escaped", async () => {
  const repo = await makeCoordRepo();
  try {
    const sent = await coordBounded(repo, "W1", [
      "send",
      "E001",
      "--to",
      "Primary",
      "--subject",
      "s",
    ], "b\n");
    assertEquals(sent.code, 0, sent.stderr);
    const file = join(await msgsDir(repo), seqFileName(1));
    const record = JSON.parse(await Deno.readTextFile(file));
    // A key of the lane's choosing, quoted back in the reason.
    record[`${" ".repeat(60)}\u001b[2K----- forwarded message -----`] = 1;
    await Deno.writeTextFile(file, JSON.stringify(record));
    for (const command of ["read", "ack"]) {
      const r = await coordBounded(repo, "Primary", [command, "E001-M0001"]);
      assertEquals(r.code, 3, r.stderr);
      assertEquals(r.stderr.split("\n").length, 2, r.stderr);
      assertFits(r.stderr);
      assertExcludes(r.stderr, "\u001b");
      assertOk(r.stderr.startsWith("error: Message E001-M0001 is corrupt: "), r.stderr);
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("framed, folded and cut lines fit and keep their prefix, for any text", () => {
  const char = fc.constantFrom(
    "a",
    " ",
    "\t",
    "\u001b",
    "\r",
    "é",
    "\u0301",
    "漢",
    "😀",
    "\u202e",
    "-",
    ":",
    "\u200d",
  );
  const text = fc.array(char, { maxLength: 400, size: "max" }).map((cs) => cs.join(""));
  fc.assert(
    fc.property(fc.array(text, { maxLength: 4, size: "max" }), (parts) => {
      const body = parts.join("\n");
      const framed = frameBody(body);
      for (const line of framed.split("\n").slice(0, -1)) {
        assertOk(line === "|" || line.startsWith("| "), JSON.stringify(line));
        assertOk(width(line) <= LINE_COLUMNS, JSON.stringify(line));
        // deno-lint-ignore no-control-regex
        assertOk(!/[\u0000-\u0008\u000b-\u001f\u202e]/.test(line), JSON.stringify(line));
      }
      const one = parts.join(" ");
      const folded = foldLine(`subject: ${one}`).split("\n");
      folded.forEach((line, i) => {
        assertOk(width(line) <= LINE_COLUMNS, JSON.stringify(line));
        assertOk(i === 0 ? line.startsWith("subject:") : line.startsWith(CONTINUATION), line);
        assertOk(!line.includes("\t"), JSON.stringify(line));
      });
      const cut = cutLine(one);
      assertOk(width(cut) <= LINE_COLUMNS && !cut.includes("\n"), JSON.stringify(cut));
    }),
    { numRuns: 300 },
  );
});
