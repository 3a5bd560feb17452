/**
 * Mutation tests for the guards added for the fourth hostile review of coord: each disables
 * one guard (the line carrying its `GUARD:` marker) in a copy of the code and shows that its
 * regression test then fails, while the unmutated copy passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const REVIEW_TESTS = "tests/coord_acks_and_display_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "only a recipient's acknowledgement is read",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (!counts(messageId, lane)) continue; // GUARD:ack-by-recipient",
      replace: "",
    }],
    file: REVIEW_TESTS,
    filter: "no recipient is ignored unread",
  },
  {
    guard: "an acknowledgement record is read only up to its cap",
    mutations: [{
      file: "src/coord/store.ts",
      find: "const file = readRecordFile(join(dir, entry.name), MAX_ACK_BYTES); // GUARD:ack-size",
      replace: "const file = readRecordFile(join(dir, entry.name));",
    }],
    file: REVIEW_TESTS,
    filter: "no recipient is ignored unread",
  },
  {
    guard: "reading acknowledgements stops at the limit",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (clock() > stopAt) throw new ReadingStopped(); // GUARD:acks-stop-reading",
      replace: "",
    }],
    file: REVIEW_TESTS,
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
    file: REVIEW_TESTS,
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
    file: REVIEW_TESTS,
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
    file: REVIEW_TESTS,
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
    file: REVIEW_TESTS,
    filter: "reflog did not see owns nothing",
  },
  {
    guard: "--json escapes what a terminal acts on",
    mutations: [{
      file: "src/coord/terminal.ts",
      find: "return text.replace(JSON_UNSAFE, escape); // GUARD:json-escape",
      replace: "return text;",
    }],
    file: REVIEW_TESTS,
    filter: "--json writes C1 controls",
  },
];

Deno.test("mutation: disabling each coord review 4 guard makes its regression test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every coord review 4 regression", async () => {
  await assertControlPasses(CASES);
});
