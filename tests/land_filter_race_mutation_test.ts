/**
 * Mutation tests for the guards against a filter the shared `.git` names, raced or planted:
 * each disables one guard (marked `// tether:guard …` on its line) in a copy of the code and
 * shows that its test in `tests/land_filter_race_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/land_filter_race_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a filter attribute whose name cannot be pinned is refused at a landing path",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find:
        'if (a.value.includes("=") || !fitsArgv(a.value)) refuse(a); // tether:guard wt-attr-filter',
      replace: "// tether:guard wt-attr-filter",
    }],
    file: FILE,
    filter: "a filter attribute",
  },
  {
    guard:
      "the landed paths are re-hashed raw after the checkout and compared with the merged tree",
    mutations: [{
      file: "src/worktree/land_write.ts",
      find: "if (rewritten.length > 0) throw notTheCheckedBytes(rewritten); // tether:guard",
      replace: "if (rewritten.length < 0) throw notTheCheckedBytes(rewritten); // tether:guard",
    }],
    file: FILE,
    filter: "bytes the checkout wrote that are not the merged tree's",
  },
  {
    guard: "the filtered id of shared mode is read with every configured filter pinned to none",
    mutations: [{
      file: "src/context/filtered.ts",
      find: "const pins = filterPins(drivers.filters); // tether:guard gate-filtered-pins",
      replace: "const pins: string[] = [];",
    }],
    file: FILE,
    filter: "a lying clean filter the spawn already had never decides gate's reading",
  },
];

Deno.test("mutation: disabling each guard against a raced or planted filter makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
