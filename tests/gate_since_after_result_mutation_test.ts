/**
 * Mutation test for review gate-3's guard: with `gate --since`'s reads started before the
 * child's result has ended on stdin (the guard marked `// tether:guard gate3-…` in
 * `gate.ts`), the test of a child still at work on the pipe fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const START =
  "    if (parsed.since !== undefined && parsed.worktree === undefined) prestartGate(parsed.since);";
const READ = "    const read = await readResultText(); // tether:guard gate3-tree-after-result";

const CASES: GuardCase[] = [{
  guard: "gate --since reads the tree only after the result has ended",
  mutations: [{ file: "gate.ts", find: `${READ}\n${START}`, replace: `${START}\n${READ}` }],
  file: "tests/gate_since_after_result_test.ts",
  filter: "a child still at work while its result is piped",
}];

Deno.test("mutation: disabling review gate-3's guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes review gate-3's test", async () => {
  await assertControlPasses(CASES);
});
