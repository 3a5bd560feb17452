/**
 * Mutation tests for the guards that undo a land whose read-back finds bytes that are not the
 * merged tree's: each disables one guard (marked `// tether:guard …` on its line) in a copy of
 * the code and shows that its test in `tests/land_readback_undo_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const UNDO = "tests/land_readback_undo_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "an undone land writes the parent's files back",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: '"restore", // tether:guard wt-undo-land',
      replace: '"version", // tether:guard wt-undo-land',
    }],
    file: UNDO,
    filter: "a raced conversion is undone",
  },
  {
    guard: "an undone land removes the files it added",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find:
        '[...pins, "rm", "-f", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], // tether:guard wt-undo-gone',
      replace: '[...pins, "version"], // tether:guard wt-undo-gone',
    }],
    file: UNDO,
    filter: "a raced conversion is undone",
  },
  {
    guard: "a land is not undone through a conversion still named",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "if (still.length > 0) { // tether:guard wt-undo-still",
      replace: "if (still.length < 0) { // tether:guard wt-undo-still",
    }],
    file: UNDO,
    filter: "a conversion still named is not run again",
  },
];

Deno.test("mutation: disabling each guard of the read-back's undo makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
