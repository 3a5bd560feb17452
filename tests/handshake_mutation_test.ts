/**
 * Mutation tests for the handshake and verify guards: each disables one guard in a copy
 * of the code and shows that the tests guarding it then fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "core.fsmonitor=false on every git call",
    mutations: [{
      file: "src/git.ts",
      find: `"core.fsmonitor=false"`,
      replace: `"tether.mutant=true"`,
    }],
    file: "tests/git_runner_test.ts",
    filter: "fsmonitor",
  },
  {
    guard: "no optional locks (no index writes, no index.lock)",
    mutations: [
      { file: "src/git.ts", find: `  "--no-optional-locks",\n`, replace: "" },
      { file: "src/git.ts", find: `  GIT_OPTIONAL_LOCKS: "0",\n`, replace: "" },
    ],
    file: "tests/git_runner_test.ts",
    filter: "stat-dirty index",
  },
  {
    guard: "capture retried when HEAD moves during status",
    mutations: [
      {
        file: "src/capture.ts",
        find: "after === before.head || attempt >= CAPTURE_ATTEMPTS",
        replace: "true",
      },
      { file: "src/capture.ts", find: "if (after !== before.head) {", replace: "if (false) {" },
    ],
    file: "tests/handshake_test.ts",
    filter: "retries a capture",
  },
  {
    guard: "one block only (two blocks take the error path)",
    mutations: [{
      file: "src/block.ts",
      find: "if (opens.length > 1) {",
      replace: "if (opens.length < 0) {",
    }],
    file: "tests/verify_test.ts",
    filter: "two blocks",
  },
  {
    guard: "parent_cwd compared as a directory, never assumed equal",
    mutations: [{
      file: "src/verification.ts",
      find: "const sameCwd = sameByText ||",
      replace: "const sameCwd = true ||",
    }],
    file: "tests/verify_test.ts",
    filter: "symlinked spelling",
  },
  {
    guard: "a directory outside the work tree has no location",
    mutations: [{
      file: "src/capture.ts",
      find: `if (inside !== "true" || `,
      replace: "if (false || ",
    }],
    file: "tests/verify_test.ts",
    filter: "outside the work tree",
  },
];

Deno.test("mutation: disabling each handshake/verify guard makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the mutations break", async () => {
  await assertControlPasses(CASES);
});
