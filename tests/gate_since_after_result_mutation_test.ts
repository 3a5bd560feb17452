/**
 * Mutation test for the guard that has `gate --since` observe the tree only after the
 * child's result has ended on stdin: with its reads started before (the guard marked
 * `// tether:guard gate3-…` in `gate.ts`), the test of a child still at work on the pipe in
 * `tests/gate_since_after_result_test.ts` fails.
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

Deno.test("mutation: disabling the guard that reads the tree after the result makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test of a child still at work on the pipe", async () => {
  await assertControlPasses(CASES);
});
