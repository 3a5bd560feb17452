/**
 * Mutation tests for the guards of review gate-7: with each disabled in a copy of the code,
 * the test of its finding in `tests/review_gate7_test.ts` fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review_gate7_test.ts";

const CASES: GuardCase[] = [{
  guard: "a HEAD leaf no file shows is a change",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find:
      "if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-commit-content",
    replace: "if (leaf === null) {",
  }],
  file: FILE,
  filter: "file is put back",
}, {
  guard: "an index entry of another kind or exec bit than the file is not explained by it",
  mutations: [{
    file: "src/gate/versions.ts",
    find:
      "  if (kindOf(now.mode) !== kindOf(version.mode)) return false; // tether:guard gate-version-mode\n",
    replace: "  return true;\n",
  }],
  file: FILE,
  filter: "only the index has",
}, {
  guard: "a repository under a name no index holds is not taken for nothing",
  mutations: [{
    file: "src/context/content.ts",
    find: "else if (listed.has(`${path}/`)) out.set(path, UNINDEXABLE_REPOSITORY);",
    replace: "else if (listed.has(`${path}//`)) out.set(path, UNINDEXABLE_REPOSITORY);",
  }],
  file: FILE,
  filter: "name no index holds",
}, {
  guard: "paths under ident are read directly, not through status",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find: "const unchecked = [...new Set([...uncheckedEntries(index), ...staged, ...ident])];",
    replace: "const unchecked = [...new Set([...uncheckedEntries(index), ...staged])];",
  }],
  file: FILE,
  filter: "through ident",
}, {
  guard: "file evidence rests on what files hold, not on what only the index or HEAD has",
  mutations: [{
    file: "src/gate/evaluate.ts",
    find: "changed: new Set(held), // tether:guard gate-evidence-held",
    replace: "changed: new Set(observed),",
  }],
  file: FILE,
  filter: "onto another branch",
}];

Deno.test("mutation: disabling a review gate-7 guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the review gate-7 tests", async () => {
  await assertControlPasses(CASES);
});
