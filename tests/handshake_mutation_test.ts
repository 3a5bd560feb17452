/**
 * Mutation tests for the handshake and verify guards: each disables one guard in a copy
 * of the code and shows that the tests guarding it then fail.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { applyMutation, copyTree, type Mutation, runTestsIn } from "./_mutation.ts";

interface Case {
  guard: string;
  mutations: Mutation[];
  file: string;
  filter: string;
}

const CASES: Case[] = [
  {
    guard: "core.fsmonitor=false on every git call",
    mutations: [{
      file: "src/git.ts",
      find: `"core.fsmonitor=false"`,
      replace: `"tether.mutant=true"`,
    }],
    file: "tests/git_runner_test.ts",
    filter: "fsmonitor",
  },
  {
    guard: "no optional locks (no index writes, no index.lock)",
    mutations: [
      { file: "src/git.ts", find: `  "--no-optional-locks",\n`, replace: "" },
      { file: "src/git.ts", find: `  GIT_OPTIONAL_LOCKS: "0",\n`, replace: "" },
    ],
    file: "tests/git_runner_test.ts",
    filter: "stat-dirty index",
  },
  {
    guard: "capture retried when HEAD moves during status",
    mutations: [
      {
        file: "src/capture.ts",
        find: "after === before.head || attempt >= CAPTURE_ATTEMPTS",
        replace: "true",
      },
      { file: "src/capture.ts", find: "if (after !== before.head) {", replace: "if (false) {" },
    ],
    file: "tests/handshake_test.ts",
    filter: "retries a capture",
  },
  {
    guard: "one block only (two blocks take the error path)",
    mutations: [{
      file: "src/block.ts",
      find: "if (opens.length > 1) {",
      replace: "if (opens.length < 0) {",
    }],
    file: "tests/verify_test.ts",
    filter: "two blocks",
  },
  {
    guard: "parent_cwd compared as a directory, never assumed equal",
    mutations: [{
      file: "src/verification.ts",
      find: "const sameCwd = sameByText ||",
      replace: "const sameCwd = true ||",
    }],
    file: "tests/verify_test.ts",
    filter: "symlinked spelling",
  },
  {
    guard: "a directory outside the work tree has no location",
    mutations: [{
      file: "src/capture.ts",
      find: `if (inside !== "true" || `,
      replace: "if (false || ",
    }],
    file: "tests/verify_test.ts",
    filter: "outside the work tree",
  },
];

Deno.test("mutation: disabling each handshake/verify guard makes its tests fail", async (t) => {
  const results = await Promise.all(CASES.map(async (c) => {
    const copy = await copyTree();
    for (const m of c.mutations) await applyMutation(copy, m);
    const r = await runTestsIn(copy, [c.file], c.filter);
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

Deno.test("mutation: the unmutated copy passes every test the mutations break", async () => {
  const copy = await copyTree();
  const runs = await Promise.all(CASES.map((c) => runTestsIn(copy, [c.file], c.filter)));
  await Deno.remove(copy, { recursive: true });
  for (const r of runs) {
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(/\b[1-9]\d* passed\b/.test(r.stdout) && /\b0 failed\b/.test(r.stdout), r.stdout);
  }
});
