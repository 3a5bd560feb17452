/**
 * Mutation test for the guard that names a landing path a failed checkout left in neither
 * state: it disables the guard (marked `// tether:guard wt-checkout-neither`) in a copy of
 * the code and shows that its test in `tests/land_checkout_died_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [{
  guard: "a landing path a failed checkout deleted is named",
  mutations: [{
    file: "src/worktree/land_undo.ts",
    find:
      "neither = land.paths.filter((p) => notMerged.has(p) && notBefore.has(p)); // tether:guard wt-checkout-neither",
    replace: "neither = []; // tether:guard wt-checkout-neither",
  }],
  file: "tests/land_checkout_died_test.ts",
  filter: "alone or beside written ones",
}];

Deno.test("mutation: disabling the guard that names a path a failed checkout deleted makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test that mutation breaks", async () => {
  await assertControlPasses(CASES);
});
