/**
 * Mutation tests for the guards that keep agreement with the seed's original helper from
 * turning into a false match: each disables one guard in a copy of the code and shows that
 * the test guarding it then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const COMPAT = "tests/original_helper_compat_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "the seed's spelling is accepted only for a branch, never for a tag git prints alike",
    mutations: [{
      file: "src/handshake/branch.ts",
      find:
        `if (!headRef.startsWith("refs/heads/")) return false; // tether:guard f3-seed-branch-only`,
      replace: "",
    }],
    file: COMPAT,
    filter: "tag named like the branch",
  },
  {
    guard: "the seed's spelling is accepted only as git spells the ref here and now",
    mutations: [{
      file: "src/handshake/branch.ts",
      find:
        "return here !== undefined && here.ref === headRef && here.abbrev === value; // tether:guard f3-seed-spelling",
      replace: "return true;",
    }],
    file: COMPAT,
    filter: "never matches HEAD on the branch x",
  },
  {
    guard: "a $PWD is written as parent_cwd only when git locates it at this very directory",
    mutations: [{
      file: "src/handshake/capture.ts",
      find:
        "return (await locate(pwd)) === where.location ? pwd : physical; // tether:guard cwd-pwd-same-dir",
      replace: "return pwd;",
    }],
    file: COMPAT,
    filter: "naming another directory is never written",
  },
  {
    guard: "a field given twice is the error path, whatever the order",
    mutations: [{
      file: "src/handshake/block.ts",
      find: "if (values[field] !== undefined) { // tether:guard f7-repeated-field",
      replace: "if (false) {",
    }],
    file: COMPAT,
    filter: "a field given twice",
  },
];

Deno.test("mutation: disabling each original-helper compatibility guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the compatibility mutations break", async () => {
  await assertControlPasses(CASES);
});
