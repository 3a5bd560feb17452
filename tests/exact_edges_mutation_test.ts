/**
 * Mutation tests for the exact-mode edges (a nested repository, an unmerged index): each
 * disables one guard (marked `GUARD:` on its line) in a copy of the code and shows that
 * the test guarding it then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "an unmerged index is refused by name before the full capture writes anything",
    mutations: [{
      file: "src/seed/state.ts",
      find:
        'if (unmerged.length > 0) throw new GitError("failed", unmergedMessage(unmerged)); // GUARD:seed-unmerged',
      replace: "",
    }],
    file: "tests/exact_edges_test.ts",
    filter: "the full capture (taken while info/attributes exists) refuses a conflicted merge",
  },
  {
    guard: "a spawn refuses a nested repository before making anything",
    mutations: [{
      file: "src/worktree/spawn_capture.ts",
      find:
        'if (refusal !== undefined) throw new GitError("failed", refusal); // GUARD:spawn-uncarried',
      replace: "",
    }],
    file: "tests/exact_edges_test.ts",
    filter: "refuses nested repositories",
  },
];

Deno.test("mutation: disabling each exact-edge guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the exact-edge mutations break", async () => {
  await assertControlPasses(CASES);
});
