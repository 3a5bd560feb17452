/**
 * Mutation tests for the guards that land a symbolic link as a link or not at all: each
 * disables one guard (marked `// tether:guard …` on its line) in a copy of the code and shows
 * that its test in `tests/land_symlinks_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const LINKS = "tests/land_symlinks_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a link is not landed while core.symlinks is false",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find:
        'return paths.filter((p) => tree.get(p)?.mode === "120000"); // tether:guard wt-land-links',
      replace: "return []; // tether:guard wt-land-links",
    }],
    file: LINKS,
    filter: "a land writing a link while core.symlinks is false is refused",
  },
  {
    guard: "the checkout's core.symlinks is pinned to the value read before it",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find:
        '...["-c", `core.symlinks=${drivers.symlinks !== false}`], // tether:guard wt-symlinks-pin',
      replace: "...[], // tether:guard wt-symlinks-pin",
    }],
    file: LINKS,
    filter: "core.symlinks flipped to false as the checkout starts does not reach it",
  },
];

Deno.test("mutation: disabling each guard of a land's links makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
