/**
 * Mutation tests for the guards of the spawn ref and the land record: each disables one
 * guard (marked `// tether:guard wt-…` on its line) in a copy of the code and shows that its
 * test in `tests/worktree_spawn_ref_and_record_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_spawn_ref_and_record_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a broken or dangling spawn ref is not a missing one",
    mutations: [{
      file: "src/worktree/child_work.ts",
      find: 'return symbolic.code === 1 ? undefined : ""; // tether:guard',
      replace: "return undefined; // tether:guard",
    }],
    file: FILE,
    filter: "broken or dangling",
  },
  {
    guard: "spawn compares a worktree directory's real path with the parent's tree",
    mutations: [{
      file: "src/worktree/spawn_dirs.ts",
      find: "dirs.map((dir) => realPath(dir, gitDir, probes)), // tether:guard",
      replace: "dirs.map((dir) => resolve(dir)), // tether:guard",
    }],
    file: FILE,
    filter: "link to the parent's tree",
  },
  // The land record's cases name the guards of the record taken from the parent: the record
  // comes from --landed and is the merge base (see record.ts). Their own tests are in
  // tests/land_record_from_parent_test.ts, with mutation cases of their own.
  {
    guard: "after a kept land, what landed is in the merge base",
    mutations: [{
      file: "src/worktree/land_merge.ts",
      find: "baseTreeId = record.tree; // tether:guard",
      replace: "baseTreeId = seedTree; // tether:guard",
    }],
    file: FILE,
    filter: "after a kept land",
  },
  {
    guard: "a --landed record must be this child's exact record on the seed",
    mutations: [{
      file: "src/worktree/record.ts",
      find: "if (!exact) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "not this child's land record",
  },
];

Deno.test("mutation: disabling each guard of the spawn ref and the land record makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
