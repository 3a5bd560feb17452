/**
 * Mutation tests for the guards of review gate-8: with each disabled in a copy of the code,
 * the test of its finding in `tests/review_gate8_test.ts` fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review_gate8_test.ts";

const CASES: GuardCase[] = [{
  guard: "a deletion HEAD has and the worktree does not show is a change",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find:
      '      if (!now.has(path)) continue;\n      const leaf = trees.after.get(path) ?? "absent";\n',
    replace:
      '      if (!now.has(path) || !trees.after.has(path)) continue;\n      const leaf = trees.after.get(path) ?? "absent";\n',
  }],
  file: FILE,
  filter: "gate-8 F1",
}, {
  guard: "a worktree that changed explains no index entry or HEAD leaf",
  mutations: [{
    file: "src/gate/versions.ts",
    find: "if (!unchanged || now === undefined) return false;",
    replace: "if (now === undefined) return false;",
  }],
  file: FILE,
  filter: "gate-8 F2",
}, {
  guard: "claims are confirmed by what files hold only",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find: "classifyChanges(observation.held, claimed)",
    replace: "classifyChanges(observation.observed, claimed)",
  }],
  file: FILE,
  filter: "gate-8 F3",
}, {
  guard: "what the snapshot's branch holds is compared when HEAD is elsewhere",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find: "return tip === null || tip === liveHead || tip === spawnHead ? null : tip;",
    replace: "return tip === null || tip !== null ? null : tip;",
  }],
  file: FILE,
  filter: "gate-8 F5",
}];

Deno.test("mutation: disabling a review gate-8 guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the review gate-8 tests", async () => {
  await assertControlPasses(CASES);
});
