/**
 * Mutation tests for issue 10's gate reads: each disables one check of the reads that now
 * run while status does (or after it, for the paths only status names) in a copy of the
 * code and shows that the tests guarding it then fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "a snapshot's entries are checked as the schema checks them",
    mutations: [{
      file: "src/gate/snapshot_schema.ts",
      find:
        "if (git && !git.entries.every(isEntry)) return undefined; // tether:guard snapshot-entries",
      replace: "",
    }],
    file: "tests/gate_scale_test.ts",
    filter: "taken exactly when the schema takes them",
  },
  {
    guard: "the live paths the snapshot does not record are looked up in the trees",
    mutations: [{
      file: "src/gate/live_state.ts",
      find: "if (more.length === 0) return trees;",
      replace: "return trees;",
    }],
    file: "tests/gate_scale_test.ts",
    filter: "a sibling deletes or edits are observed",
  },
  {
    guard: "the paths only the live status or the trees name are read after it",
    mutations: [{
      file: "src/gate/live_state.ts",
      find: "others.length === 0",
      replace: "true",
    }],
    file: "tests/gate_scale_test.ts",
    filter: "a sibling deletes or edits are observed",
  },
];

Deno.test("mutation: disabling each issue-10 gate read makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the mutations break", async () => {
  await assertControlPasses(CASES);
});
