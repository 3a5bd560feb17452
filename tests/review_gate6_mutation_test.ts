/**
 * Mutation tests for the guards of review gate-6: with each disabled in a copy of the code,
 * the test of its finding in `tests/review_gate6_test.ts` fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review_gate6_test.ts";

const CASES: GuardCase[] = [{
  guard: "the status both sides run ignores the untracked cache",
  mutations: [{
    file: "src/context/status.ts",
    find: '  "core.untrackedCache=false", // tether:guard status-no-untracked-cache\n',
    replace: '  "core.tether=4",\n',
  }],
  file: FILE,
  filter: "finding 1:",
}, {
  guard: "a name no index can hold is read by lstat, not taken for nothing",
  mutations: [{
    file: "src/context/content.ts",
    find: "} else if (mode === undefined) unindexed.push(path); // tether:guard unindexable-name",
    replace: "} else if (mode === null) unindexed.push(path);",
  }],
  file: FILE,
  filter: "finding 2:",
}, {
  guard: "private indexes fold no case",
  mutations: [{
    file: "src/context/content.ts",
    find: '  "core.ignorecase=false", // tether:guard private-index-case\n',
    replace: '  "core.tether=5",\n',
  }],
  file: FILE,
  filter: "finding 3:",
}, {
  guard: "private indexes know no sparse patterns",
  mutations: [{
    file: "src/context/content.ts",
    find: '  "core.sparseCheckout=false", // tether:guard private-index-sparse\n',
    replace: '  "core.tether=6",\n',
  }],
  file: FILE,
  filter: "finding 4:",
}, {
  guard: "no filtered id where ident or an encoding converts the content",
  mutations: [{
    file: "src/context/content.ts",
    find: "const plain = wanted.filter((p) => !converted.has(p));",
    replace: "const plain = wanted.filter((p) => !converted.has(p + '\\0'));",
  }],
  file: FILE,
  filter: "finding 5:",
}, {
  guard: "an absent skip-worktree entry is judged by the index only when the set is the spawn's",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find:
      "if (git.skip_worktree !== undefined && git.skip_worktree === await pathSetDigest(skipped)) {",
    replace: "if (skipped.length >= 0) {",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "skip-worktree is observed",
}, {
  guard: "an index entry no file explains is a change",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find: "if (!explained(entry, spawnVersions(path), now.get(path), unchanged(path))) {",
    replace: "if (entry === null) {",
  }],
  file: FILE,
  filter: "worktree put back",
}];

Deno.test("mutation: disabling a review gate-6 guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the review gate-6 tests", async () => {
  await assertControlPasses(CASES);
});
