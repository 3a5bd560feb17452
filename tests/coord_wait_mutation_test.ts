/**
 * Mutation tests for `coord wait`: each disables one guard in a copy of the code and shows
 * that its test in `coord_wait_test.ts` then fails, while the unmutated copy passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/coord_wait_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "wait reports only messages the caller may see",
    mutations: [{
      file: "src/coord/commands/inbox.ts",
      find: "const shown = mine.filter((m) => visible(m.id)); // GUARD:inbox-visibility",
      replace: "const shown = mine; // GUARD:inbox-visibility",
    }],
    filter: "not woken by messages the caller may not see",
  },
  {
    guard: "wait counts only unacknowledged messages addressed to the caller",
    mutations: [{
      file: "src/coord/commands/inbox.ts",
      find: `if (unackedOnly && (!addressed || state === "ACKNOWLEDGED")) continue;`,
      replace: "",
    }],
    filter: "does not count acknowledged messages",
  },
  {
    guard: "an arrival wakes only when it is itself waiting",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find: "const woken = waiting.some((id) => trigger.ids.has(id)); // GUARD:wait-arrival",
      replace: "const woken = true; // GUARD:wait-arrival",
    }],
    filter: "an arrival the caller may not see never ends the wait early",
  },
  {
    guard: "an arrival never wakes a wait early (end to end, simulated time)",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find: "const woken = waiting.some((id) => trigger.ids.has(id)); // GUARD:wait-arrival",
      replace: "const woken = true; // GUARD:wait-arrival",
    }],
    filter: "hidden arrivals change neither when nor with what",
  },
  {
    guard: "missing permission flags are an error, not a fall back to the grid",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find: "if (error instanceof Deno.errors.NotCapable) throw error;",
      replace: "",
    }],
    filter: "fails loudly, not by falling back to the grid",
  },
  {
    guard: "only a full check moves the re-check grid on",
    mutations: [{
      file: "src/coord/commands/wait.ts",
      find:
        "      while (nextGrid <= now) nextGrid += recheckMs; // GUARD:wait-grid (only full checks move it)\n    }\n",
      replace: "    }\n    while (nextGrid <= now) nextGrid += recheckMs;\n",
    }],
    filter: "hidden arrivals change neither when nor with what",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("coord wait guards: each guard's test passes on the unmutated copy", async () => {
  await assertControlPasses(CASES);
});

Deno.test("coord wait guards: disabling any one makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});
