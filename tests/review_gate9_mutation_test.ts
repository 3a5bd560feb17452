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
      find: "git.conversions === settings.key; // tether:guard gate-conversions-same",
      replace: "settings.key !== null;",
    }],
    file: TESTS,
    filter: "gate-9 F1",
  },
  {
    guard: "and only where the attributes that apply are the spawn's",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: 'const asAtSpawn = (path: string) => settingsSame && reading(path) === "same";',
      replace: "const asAtSpawn = (path: string) => settingsSame || reading(path) !== null;",
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
  {
    guard: "today's attributes are read as hash-object reads them, without the index's",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "env: { GIT_INDEX_FILE: privateIndexPath(side.dirs.commonDir) }, // tether:guard",
      replace: "env: {}, //",
    }],
    file: TESTS,
    filter: "gate-10 F1",
  },
  {
    guard:
      "a file git takes for clean by its stat data alone, with bytes not the blob's, is unknown",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "stale(path) // tether:guard gate-stale-same",
      replace: "false",
    }],
    file: TESTS,
    filter: "gate-10 F3",
  },
  {
    guard: "and so where the spawn converted nothing",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "if (stale(path)) unknown.add(path); // tether:guard gate-stale",
      replace: "if (stale(path) && path === null) unknown.add(path);",
    }],
    file: TESTS,
    filter: "gate-10 F3",
  },
  {
    guard: "an ident file is taken with CRLF only where the spawn's settings write CRLF",
    mutations: [{
      file: "src/gate/evaluate.ts",
      find: "crlf: ident && a !== undefined && writesCrlf(a, settings)",
      replace: "crlf: ident",
    }],
    file: TESTS,
    filter: "gate-10 F7",
  },
];

Deno.test("mutation: disabling a conversion guard of gate makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the tests of gate's conversion guards", async () => {
  await assertControlPasses(CASES);
});
