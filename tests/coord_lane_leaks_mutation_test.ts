/**
 * Mutation tests for the guards that keep a lane's work from leaking to lanes that may not
 * see it: each disables one guard in a copy of the code and shows that its test in
 * tests/coord_lane_leaks_test.ts then fails, while the unmutated copy passes.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/coord_lane_leaks_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "git trace variables turned off",
    mutations: [
      {
        file: "src/git.ts",
        find:
          `  ...Object.fromEntries(TRACE_VARIABLES.map((name) => [name, "0"])), // tether:guard trace-off\n`,
        replace: "",
      },
    ],
    filter: "trace variables",
  },
  {
    guard: "git trace switches set to 0, not empty (empty falls back to the configuration)",
    mutations: [
      {
        file: "src/git.ts",
        find: `TRACE_VARIABLES.map((name) => [name, "0"])), // tether:guard trace-off`,
        replace: `TRACE_VARIABLES.map((name) => [name, ""])), // tether:guard trace-off`,
      },
    ],
    filter: "trace targets in a configuration file",
  },
  {
    guard: "status hides work items the caller cannot see",
    mutations: [{
      file: "src/coord/commands/status.ts",
      find: "if (workItem === undefined && shown.length === 0) continue;",
      replace: "",
    }],
    filter: "does not list a work item",
  },
  {
    guard: "commits no reflog records are Primary's only",
    mutations: [{
      file: "src/coord/visibility.ts",
      find: "const owner = history.owners.get(c) ?? CONTESTED;",
      replace: "const owner = history.owners.get(c) ?? PRIMARY;",
    }],
    filter: "stash",
  },
  {
    guard: "commits of a worktree that is no lane's are Primary's only",
    mutations: [
      {
        file: "src/coord/visibility.ts",
        find: "const owner = history.owners.get(c) ?? CONTESTED;",
        replace: "const owner = history.owners.get(c) ?? PRIMARY;",
      },
      {
        file: "src/coord/ownership.ts",
        find: "...unowned.map((name) => [name, CONTESTED] as [string, string]),",
        replace: "",
      },
    ],
    filter: "moving W1's worktree",
  },
  {
    guard: "a fast-forward entry claims no commit",
    mutations: [{
      file: "src/coord/ownership.ts",
      find: "if (FAST_FORWARD.test(subject)) return undefined;",
      replace: "",
    }],
    filter: "cherry-pick --ff",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("mutation: disabling each guard against a lane's leaks makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of a lane's leaks", async () => {
  await assertControlPasses(CASES);
});
