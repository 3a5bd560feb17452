/**
 * Mutation tests for the guards of acknowledgements, display and amend ownership: each
 * disables one guard (the line carrying its `GUARD:` marker) in a copy of the code and shows
 * that its test in tests/coord_acks_and_display_test.ts then fails, while the unmutated copy
 * passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const TESTS = "tests/coord_acks_and_display_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "only a recipient's acknowledgement is read",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (!counts(messageId, lane)) continue; // GUARD:ack-by-recipient",
      replace: "",
    }],
    file: TESTS,
    filter: "no recipient is ignored unread",
  },
  {
    guard: "an acknowledgement record is read only up to its cap",
    mutations: [{
      file: "src/coord/store.ts",
      find: "const file = readRecordFile(join(dir, entry.name), MAX_ACK_BYTES); // GUARD:ack-size",
      replace: "const file = readRecordFile(join(dir, entry.name));",
    }],
    file: TESTS,
    filter: "no recipient is ignored unread",
  },
  {
    guard: "reading acknowledgements stops at the limit",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (clock() > stopAt) throw new ReadingStopped(); // GUARD:acks-stop-reading",
      replace: "",
    }],
    file: TESTS,
    filter: "stops at the reader's limit",
  },
  {
    guard: "a wait's deadline reaches the acknowledgements",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find:
        "const found = await inbox(session, workItem, true, slots, stopAt, clock); // GUARD:wait-stop-acks",
      replace: "const found = await inbox(session, workItem, true, slots);",
    }],
    file: TESTS,
    filter: "bounds its reading of acknowledgements",
  },
  {
    guard: "a character shown with emoji presentation counts two columns",
    mutations: [{
      file: "src/coord/terminal.ts",
      find:
        "if (presentsEmoji(c) && last.width >= 0 && !last.presented) { // GUARD:emoji-presentation",
      replace: "if (false) {",
    }],
    file: TESTS,
    filter: "emoji presentation counts two columns",
  },
  {
    guard: "a blocker's subject in an owner action is quoted with its quotes escaped",
    mutations: [{
      file: "src/coord/commands/status.ts",
      find:
        'const escaped = m.subject.replace(/[\\\\"]/g, "\\\\$&"); // GUARD:quote-action-subject',
      replace: "const escaped = m.subject;",
    }],
    file: TESTS,
    filter: "is quoted, its quotes escaped",
  },
  {
    guard: "an amend owns only when its old value is the entry before it",
    mutations: [{
      file: "src/coord/ownership.ts",
      find:
        "if (amend && oldValue(files.get(name), n, entry.commit) !== before?.commit) continue; // GUARD:amend-old-value",
      replace: "",
    }],
    file: TESTS,
    filter: "reflog did not see owns nothing",
  },
  {
    guard: "--json escapes what a terminal acts on",
    mutations: [{
      file: "src/coord/terminal.ts",
      find: "return text.replace(JSON_UNSAFE, escape); // GUARD:json-escape",
      replace: "return text;",
    }],
    file: TESTS,
    filter: "--json writes C1 controls",
  },
];

Deno.test("mutation: disabling each guard of acknowledgements and display makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of acknowledgements and display", async () => {
  await assertControlPasses(CASES);
});
