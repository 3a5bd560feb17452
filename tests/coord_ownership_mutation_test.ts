/**
 * Mutation tests for the guards of the ownership rule: each disables one guard (the line
 * carrying its `GUARD:` marker) in a copy of the code and shows that its test in
 * tests/coord_ownership_test.ts then fails, while the unmutated copy passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/coord_ownership_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "a rebase pick's action words are git's, from the start (no pull arguments)",
    mutations: [{
      file: "src/coord/ownership.ts",
      find:
        '[/^rebase( -i)? \\((pick|reword|edit|continue|merge)\\): /s, "first-parent"], // GUARD:exact-action',
      replace:
        '[/^(rebase|pull\\b[^\\n]*?)( -i)? \\((pick|reword|edit|continue|merge)\\): /s, "first-parent"],',
    }],
    filter: "fast-forward read as a rebase pick",
  },
  {
    guard: "a pull's merge owns nothing",
    mutations: [{
      file: "src/coord/ownership.ts",
      find:
        `[/^merge [^\\n]*: Merge made by (the '[a-z-]+' strategy|[a-z-]+)\\.$/, "first-parent"], // GUARD:no-pull-merge`,
      replace:
        `[/^(merge|pull)\\b[^\\n]*: Merge made by (the '[a-z-]+' strategy|[a-z-]+)\\.$/, "first-parent"],`,
    }],
    filter: "pull's own creations own nothing",
  },
  {
    guard: "a creation entry is written at its commit's committer time",
    mutations: [{
      file: "src/coord/ownership.ts",
      find:
        "if (Math.abs(entry.time - entry.committed) > CREATION_CLOCK_SLACK_SECONDS) return false; // GUARD:creation-time",
      replace: "",
    }],
    filter: "written long after its commit",
  },
  {
    guard: "only a lane's first visit of a commit can create it",
    mutations: [{
      file: "src/coord/ownership.ts",
      find: "if (first.get(entry.commit) !== n) continue; // GUARD:first-visit",
      replace: "",
    }],
    filter: "already been at",
  },
  {
    guard: "an amend's source must be inspectable like a parent",
    mutations: [{
      file: "src/coord/visibility.ts",
      find: "...sourcesOf(c), // GUARD:amend-source",
      replace: "",
    }],
    filter: "amending a commit the lane may not inspect makes nothing it may inspect",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("ownership guards: the unmutated copy passes every guard's test", async () => {
  await assertControlPasses(CASES);
});

Deno.test("ownership guards: disabling any one of them fails its test", async (t) => {
  await assertEachMutantFails(t, CASES);
});
