/**
 * Mutation tests for the path-bytes guards of review worktree-3 (findings 2, 4, 6 and 11):
 * each disables one guard (marked `// tether:guard …` on its line) in a copy of the code and
 * shows that its test in `tests/review3_pathbytes_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review3_pathbytes_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "the ignored listing at land is decoded exactly",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: "for (const entry of decodePaths(listed.stdout)) { // tether:guard",
      replace:
        'for (const entry of new TextDecoder().decode(listed.stdout).split("\\0")) { // tether:guard',
    }],
    file: FILE,
    filter: "finding 2",
  },
];

Deno.test("mutation: disabling each path-bytes guard of review worktree-3 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
