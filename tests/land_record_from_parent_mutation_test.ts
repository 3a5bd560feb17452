/**
 * Mutation tests for the guards that take a land record only from the parent: each disables
 * one guard (marked `// tether:guard wt-…` on its line) in a copy of the code and shows that
 * its test in `tests/land_record_from_parent_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/land_record_from_parent_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a --landed record must be this child's exact record on the seed",
    mutations: [{
      file: "src/worktree/record.ts",
      find: "if (!exact) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "a sibling's forged land record in shared refs holds nothing back",
  },
  {
    guard: "a --landed record names one child: a sibling's record is refused",
    mutations: [{
      file: "src/worktree/record.ts",
      find: "if (!exact) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "a sibling's own land record is not another child's",
  },
  {
    guard: "with --landed, what landed is in the merge base",
    mutations: [{
      file: "src/worktree/land_merge.ts",
      find: "baseTreeId = record.tree; // tether:guard",
      replace: "baseTreeId = seedTree; // tether:guard",
    }],
    file: FILE,
    filter: "after a kept land the parent takes the landed line out again",
  },
  {
    guard:
      "with --landed, a path put back as the seed had it since the record is the child's change",
    mutations: [{
      file: "src/worktree/child_work.ts",
      find: "const round = sinceRecord ?? changed; // tether:guard",
      replace: "const round = changed; // tether:guard",
    }],
    file: FILE,
    filter: "a child that puts a landed file back as the seed had it",
  },
];

Deno.test("mutation: disabling each guard that takes the land record from the parent makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
