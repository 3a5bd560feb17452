/**
 * Mutation tests for the guards of review gate-9 (docs/reviews/gate-9): with each disabled
 * in a copy of the code, a test in `tests/review_gate9_test.ts` fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const TESTS = "tests/review_gate9_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "git's reading of a converted file counts only under the spawn's conversion settings",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "git.conversions === await conversionsRead; // tether:guard gate-conversions-same",
      replace: "(await conversionsRead) !== null;",
    }],
    file: TESTS,
    filter: "gate-9 F1",
  },
  {
    guard: "and only where the attributes that apply are the spawn's",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "const asAtSpawn = (path: string) => settingsSame && filesSame(path);",
      replace: "const asAtSpawn = (path: string) => settingsSame || filesSame(path);",
    }],
    file: TESTS,
    filter: "UTF-16",
  },
  {
    guard:
      "a changed attributes file keeps a path only when its conversion attributes are the spawn's",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "const kept = new Set(redo.filter((p) => then.get(p) === now.get(p)));",
      replace: "const kept = new Set(redo.filter((p) => then !== now));",
    }],
    file: TESTS,
    filter: "UTF-16",
  },
  {
    guard: "a file neither shown unchanged nor known to be changed is unknown",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "!asAtSpawn(path) || a?.filter || (content.filtered === undefined && !a?.ident)",
      replace: "a === null",
    }],
    file: TESTS,
    filter: "gate-9 F1",
  },
  {
    guard: "a file under a filter is unknown",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "!asAtSpawn(path) || a?.filter || (content.filtered === undefined && !a?.ident)",
      replace: "!asAtSpawn(path) || (content.filtered === undefined && !a?.ident)",
    }],
    file: TESTS,
    filter: "a filter checked out",
  },
  {
    guard: "an unknown path is not observed",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: ".filter((p) => !unknown.has(p)); // tether:guard gate-unknown-held",
      replace: ".filter((p) => p !== null);",
    }],
    file: TESTS,
    filter: "gate-9 F1",
  },
  {
    guard: "file evidence for an unknown path is unverified",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "if (spawn?.unknown?.has(path)) { // tether:guard gate-evidence-unknown",
      replace: "if (spawn?.unknown?.has(path + '\\0')) {",
    }],
    file: TESTS,
    filter: "UTF-16",
  },
];

Deno.test("mutation: disabling a conversion guard of gate makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the tests of gate's conversion guards", async () => {
  await assertControlPasses(CASES);
});
