/**
 * Mutation test for the temp-dir cleanup: without the after-module hook in
 * tests/_helpers.ts, tests/tmp_cleanup_test.ts fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [{
  guard: "temp dirs removed after each test module",
  mutations: [{
    file: "tests/_helpers.ts",
    find: "Deno.test.afterAll(removeTempDirs);",
    replace: "",
  }],
  file: "tests/tmp_cleanup_test.ts",
  filter: "forgets its temp dirs",
}];

Deno.test("mutation: without the temp-dir cleanup hook the cleanup test fails", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the cleanup test", async () => {
  await assertControlPasses(CASES);
});
