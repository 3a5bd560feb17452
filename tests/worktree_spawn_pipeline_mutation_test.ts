/**
 * Mutation test for the guard of spawn's early checkout (issue 9, item 6): a child whose
 * files were written from the parent's first reading is written again from the confirmed
 * state when that is another tree. Disabling it (marked `// tether:guard
 * wt-spawn-recheckout`) in a copy of the code makes its test in
 * tests/worktree_spawn_pipeline_test.ts fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "a child written from an earlier reading is written again from the confirmed state",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "if (state.worktree !== first) await checkout(state.worktree); // tether:guard",
      replace: "// tether:guard",
    }],
    file: "tests/worktree_spawn_pipeline_test.ts",
    filter: "every child is written again from the confirmed state",
  },
];

Deno.test("mutation: disabling the early checkout's guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test that mutation breaks", async () => {
  await assertControlPasses(CASES);
});
