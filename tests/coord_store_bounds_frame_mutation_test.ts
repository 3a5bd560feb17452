/**
 * Mutation tests for the guards that bound what a planted slot costs and keep a lane's text
 * inside its frame: each disables one guard (the line carrying its `GUARD:` marker) in a
 * copy of the code and shows that its test in tests/coord_store_bounds_frame_test.ts then
 * fails, while the unmutated copy passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const STORE_TESTS = "tests/coord_store_test.ts";
const TESTS = "tests/coord_store_bounds_frame_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "only canonical file names are slots",
    mutations: [{
      file: "src/coord/store.ts",
      find: "return seqFileName(seq) === name ? seq : undefined; // GUARD:canonical-slot-name",
      replace: "return seq;",
    }],
    file: STORE_TESTS,
    filter: "only canonical file names are slots",
  },
  {
    guard: "a sender takes the first number the listing lacks",
    mutations: [{
      file: "src/coord/store.ts",
      find: "let seq = firstGap(listSlots(msgs)); // GUARD:sender-first-gap",
      replace: "let seq = Math.max(0, ...listSlots(msgs)) + 1;",
    }],
    file: STORE_TESTS,
    filter: "a sender takes the first free number",
  },
  {
    guard: "readers stop at the first missing slot",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (slot === undefined) break; // GUARD:stop-at-gap",
      replace:
        "if (slot === undefined) { if (![...listed].some((n) => n > seq) || seq > 100) break; continue; }",
    }],
    file: STORE_TESTS,
    filter: "readers stop at the first missing slot",
  },
  {
    guard: "a message is read by id only within the sequence",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (seq > end) return undefined; // GUARD:read-one-in-sequence",
      replace: "",
    }],
    file: STORE_TESTS,
    filter: "readers stop at the first missing slot",
  },
  {
    guard: "a wait stops reading the store after its deadline",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find: "if (clock() > stopAt) throw new ReadingStopped(); // GUARD:wait-stop-reading",
      replace: "",
    }],
    file: TESTS,
    filter: "a wait stops reading",
  },
  {
    guard: "long lines are wrapped",
    mutations: [{
      file: "src/coord/terminal.ts",
      find: "if (advance(cell, column) > limit && current.length > 0) { // GUARD:wrap-long-line",
      replace: "if (false) {",
    }],
    file: TESTS,
    filter: "wraps inside the frame",
  },
  {
    guard: "a folded line continues indented",
    mutations: [{
      file: "src/coord/terminal.ts",
      find:
        'return [head, ...rest.map((l) => `${CONTINUATION}${l}`)].join("\\n"); // GUARD:fold-continuation',
      replace: 'return [head, ...rest].join("\\n");',
    }],
    file: TESTS,
    filter: "folded in read headers",
  },
  {
    guard: "a one-line view is cut",
    mutations: [{
      file: "src/coord/terminal.ts",
      find: "return `${kept}${CUT_MARK}`; // GUARD:cut-one-line",
      replace: "return escapeLine(line);",
    }],
    file: TESTS,
    filter: "folded in read headers",
  },
  {
    guard: "inbox rows are cut",
    mutations: [{
      file: "src/coord/commands/inbox.ts",
      find: "return `${cutLine(row, LINE_COLUMNS)}\\n`; // GUARD:cut-inbox-row",
      replace: "return `${cutLine(row, 100_000)}\\n`;",
    }],
    file: TESTS,
    filter: "folded in read headers",
  },
  {
    guard: "a subject in an owner action is cut",
    mutations: [{
      file: "src/coord/commands/status.ts",
      find: "const subject = cutLine(escaped, ACTION_SUBJECT_COLUMNS); // GUARD:cut-action-subject",
      replace: "const subject = escaped;",
    }],
    file: TESTS,
    filter: "folded in read headers",
  },
  {
    guard: "status lines are folded",
    mutations: [{
      file: "src/coord/commands/status.ts",
      find: 'return lines.map(foldLine).join("\\n") + "\\n"; // GUARD:fold-status',
      replace: 'return lines.join("\\n") + "\\n";',
    }],
    file: TESTS,
    filter: "folded in read headers",
  },
  {
    guard: "the error for a corrupt record is cut to fit",
    mutations: [{
      file: "src/coord/commands/read.ts",
      find:
        "return new StoreError(cutLine(`Message ${textId} is corrupt: ${reason}`, width)); // GUARD:cut-error",
      replace: "return new StoreError(`Message ${textId} is corrupt: ${reason}`);",
    }],
    file: TESTS,
    filter: "one line that fits",
  },
];

Deno.test("mutation: disabling each store-bound or frame guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of the store's bounds and the frame", async () => {
  await assertControlPasses(CASES);
});
