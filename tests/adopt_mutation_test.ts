/**
 * Mutation tests for the guards of the CLI conventions and prompt encodings: each
 * disables one guard in a copy of the code and shows that the tests guarding it then fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "undecodable prompt never takes the missing path",
    mutations: [{
      file: "src/commands/verify.ts",
      find: `if (parsed.kind === "missing") {`,
      replace: "if (false) {",
    }],
    file: "tests/encoding_test.ts",
    filter: "holds no readable block",
  },
  {
    guard: "a block whose values do not decode is unparseable",
    mutations: [{
      file: "src/commands/verify.ts",
      find: `(parsed.kind === "block" || parsed.kind === "v2") &&`,
      replace: `false &&`,
    }],
    file: "tests/encoding_test.ts",
    filter: "values are not valid UTF-8",
  },
  {
    guard: "a missing --allow-run is a permission error, not 'git is not installed'",
    mutations: [{
      file: "src/git.ts",
      find:
        "error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied",
      replace: "false",
    }],
    file: "tests/cli_conventions_test.ts",
    filter: "without --allow-run=git",
  },
  {
    guard: "coord lets a missing --allow-read through instead of 'Not a git worktree'",
    mutations: [{
      file: "src/coord/worktree.ts",
      find: "if (isPermissionError(error)) throw error;",
      replace: "",
    }],
    file: "tests/cli_conventions_test.ts",
    filter: "without --allow-read",
  },
  {
    guard: "the coord store lets a missing --allow-write through instead of a store failure",
    mutations: [{
      file: "src/coord/store.ts",
      find: "if (isPermissionError(error)) throw error;",
      replace: "",
    }],
    file: "tests/cli_conventions_test.ts",
    filter: "without --allow-write",
  },
];

Deno.test("mutation: disabling each CLI-convention and encoding guard makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the mutations break", async () => {
  await assertControlPasses(CASES);
});
