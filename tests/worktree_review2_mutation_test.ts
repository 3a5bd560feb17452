/**
 * Mutation tests for the guards added for review worktree-2's open items: each disables
 * one guard (marked `// tether:guard wt-…` on its line) in a copy of the code and shows
 * that its test in `tests/worktree_review2_minor_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_review2_minor_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a broken or dangling spawn ref is not a missing one",
    mutations: [{
      file: "src/worktree/land.ts",
      find: 'return symbolic.code === 1 ? undefined : ""; // tether:guard',
      replace: "return undefined; // tether:guard",
    }],
    file: FILE,
    filter: "broken or dangling",
  },
  {
    guard: "spawn compares a worktree directory's real path with the parent's tree",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "const absolute = await realPath(resolve(dir), gitDir); // tether:guard",
      replace: "const absolute = resolve(dir); // tether:guard",
    }],
    file: FILE,
    filter: "link to the parent's tree",
  },
  {
    guard: "a land leaves out only paths the child has not changed since its land record",
    mutations: [{
      file: "src/worktree/record.ts",
      find: "!changedAgain.has(p) && // tether:guard",
      replace: "true && // tether:guard",
    }],
    file: FILE,
    filter: "after a kept land",
  },
  {
    guard: "a land leaves out only paths where the parent holds the record's change",
    mutations: [{
      file: "src/worktree/record.ts",
      find: "holds.has(p) // tether:guard",
      replace: "true // tether:guard",
    }],
    file: FILE,
    filter: "forged land record",
  },
  {
    guard: "a land record must be a commit on the seed",
    mutations: [{
      file: "src/worktree/record.ts",
      find: 'if (type !== "commit" || !tree || parents.join(" ") !== seed) { // tether:guard',
      replace: 'if (type !== "commit" || !tree) { // tether:guard',
    }],
    file: FILE,
    filter: "not a commit on the seed",
  },
];

Deno.test("mutation: disabling each guard added for review worktree-2 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
