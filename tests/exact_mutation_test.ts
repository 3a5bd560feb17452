/**
 * Mutation tests for the exact-mode guards: each disables one guard (marked `GUARD:` on
 * its line) in a copy of the code and shows that the test guarding it then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "the live content state is compared with the seed's",
    mutations: [{
      file: "src/v2/exact.ts",
      find: "const same = sameState(expected.value, observed.value); // GUARD:seed-comparison",
      replace: "const same = true;",
    }],
    file: "tests/exact_test.ts",
    filter: "two different edits",
  },
  {
    guard: "a seed's bytes must hash to its id (a forged object is refused)",
    mutations: [{
      file: "src/seed/commit.ts",
      find: `if (await objectId("commit", stdout, format) !== oid) { // GUARD:seed-hash`,
      replace: "if (false) {",
    }],
    file: "tests/exact_test.ts",
    filter: "forged seed object",
  },
  {
    // Two layers keep replace refs off for a seed read: the seed's own environment and the
    // git runner's default; the guard is gone only when both are.
    guard: "replace refs are off when a seed is read",
    mutations: [{
      file: "src/seed/commit.ts",
      find: "env: NO_REPLACE, // GUARD:seed-no-replace",
      replace: "env: {},",
    }, {
      file: "src/git.ts",
      find: 'if (!options.keepReplaceObjects) env.GIT_NO_REPLACE_OBJECTS = "1";',
      replace: "",
    }],
    file: "tests/exact_test.ts",
    filter: "only through git replace",
  },
  {
    guard: "a seed must be byte-identical to what writeSeed writes",
    mutations: [{
      file: "src/seed/commit.ts",
      find: "|| !canonical) { // GUARD:seed-shape",
      replace: ") {",
    }],
    file: "tests/seed_state_test.ts",
    filter: "shaped like a seed",
  },
  {
    guard: "the seed must record the block's parent_head",
    mutations: [{
      file: "src/v2/exact.ts",
      find: "if (state.head !== block.parent_head.toLowerCase()) { // GUARD:seed-head",
      replace: "if (false) {",
    }],
    file: "tests/exact_test.ts",
    filter: "records another HEAD",
  },
];

Deno.test("mutation: disabling each exact-mode guard makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the exact-mode mutations break", async () => {
  await assertControlPasses(CASES);
});
