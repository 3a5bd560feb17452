/**
 * Mutation tests for the guards added after the hostile review of coord: each disables one
 * guard in a copy of the code and shows that its regression test then fails, while the
 * unmutated copy passes.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { applyMutation, copyTree, type Mutation, runTestsIn } from "./_mutation.ts";

interface Case {
  guard: string;
  mutations: Mutation[];
  filter: string;
}

const FILE = "tests/coord_review_test.ts";

const CASES: Case[] = [
  {
    guard: "git trace variables turned off",
    mutations: [
      {
        file: "src/git.ts",
        find: `  ...Object.fromEntries(TRACE_VARIABLES.map((name) => [name, ""])),\n`,
        replace: "",
      },
    ],
    filter: "trace variables",
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
      find: `if (lane === undefined || reflogEvent(subject) !== "creation") continue;`,
      replace: `if (lane === undefined || reflogEvent(subject) === "move") continue;`,
    }],
    filter: "cherry-pick --ff",
  },
];

Deno.test("mutation: disabling each coord review guard makes its regression test fail", async (t) => {
  const results = await Promise.all(CASES.map(async (c) => {
    const copy = await copyTree();
    for (const m of c.mutations) await applyMutation(copy, m);
    const r = await runTestsIn(copy, [FILE], c.filter);
    await Deno.remove(copy, { recursive: true });
    return { c, r };
  }));
  for (const { c, r } of results) {
    await t.step(`without "${c.guard}" the suite fails`, () => {
      assertOk(
        /\b[1-9]\d* failed\b/.test(r.stdout + r.stderr),
        `${c.filter}: ${r.stdout}${r.stderr}`,
      );
      assertEquals(r.code === 0, false);
    });
  }
});

Deno.test("mutation: the unmutated copy passes every coord review regression", async () => {
  const copy = await copyTree();
  const runs = await Promise.all(CASES.map((c) => runTestsIn(copy, [FILE], c.filter)));
  await Deno.remove(copy, { recursive: true });
  for (const r of runs) {
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(/\b[1-9]\d* passed\b/.test(r.stdout) && /\b0 failed\b/.test(r.stdout), r.stdout);
  }
});
