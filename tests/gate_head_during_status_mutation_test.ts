/**
 * Mutation test for the guard that has gate read HEAD again after status: it disables the
 * guard (marked `// tether:guard gate-head-still`) in a copy of the code and shows that its
 * test in `tests/gate_head_during_status_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [{
  guard: "gate --since refuses a HEAD that moved while it read the tree",
  mutations: [{
    file: "src/gate/live_state.ts",
    find: "if (headAfter !== repo.head) { // tether:guard gate-head-still",
    replace: "if (headAfter !== headAfter) { // tether:guard gate-head-still",
  }],
  file: "tests/gate_head_during_status_test.ts",
  filter: "a commit between gate's HEAD read and its status",
}];

Deno.test("mutation: disabling the guard that reads HEAD again after status makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test that mutation breaks", async () => {
  await assertControlPasses(CASES);
});
