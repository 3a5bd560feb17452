/**
 * Mutation tests for the guards that pin a land's git calls to the repository resolved at its
 * start (and gate --since and a spawn to theirs): each disables one guard (marked
 * `// tether:guard …` on its line) in a copy of the code and shows that its test in
 * `tests/land_pinned_repository_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const PIN = "tests/land_pinned_repository_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "every git call at the pinned top level names the repository explicitly",
    mutations: [{
      file: "src/git.ts",
      find:
        "return { GIT_DIR: repository.gitDir, GIT_WORK_TREE: repository.top, ...common }; // tether:guard pin-env",
      replace: "return {}; // tether:guard pin-env",
    }],
    file: PIN,
    filter: "observation 1 (a)",
  },
  {
    guard: "the read-back reads the pinned work tree, not the one a late core.worktree names",
    mutations: [{
      file: "src/git.ts",
      find:
        "return { GIT_DIR: repository.gitDir, GIT_WORK_TREE: repository.top, ...common }; // tether:guard pin-env",
      replace: "return {}; // tether:guard pin-env",
    }],
    file: PIN,
    filter: "observation 1 (b)",
  },
  {
    guard: "a repository that moved during the land is said after it",
    mutations: [{
      file: "src/worktree/land.ts",
      find: "if (movedAfter !== undefined) { // tether:guard wt-pin-after",
      replace: 'if (movedAfter === "") { // tether:guard wt-pin-after',
    }],
    file: PIN,
    filter: "observation 1 (a)",
  },
  {
    guard: "a main git dir naming another common dir is refused at the start",
    mutations: [{
      file: "src/repo_pin.ts",
      find: "if (repo.gitDir !== repo.commonDir && !linked) { // tether:guard pin-commondir",
      replace: 'if (repo.gitDir === "") { // tether:guard pin-commondir',
    }],
    file: PIN,
    filter: "observation 3 (a)",
  },
  {
    guard: "a repository that moved before the checkout stops the land",
    mutations: [{
      file: "src/worktree/land.ts",
      find: "if (moved !== undefined) { // tether:guard wt-pin-before",
      replace: 'if (moved === "") { // tether:guard wt-pin-before',
    }],
    file: PIN,
    filter: "observation 3 (b)",
  },
  {
    guard: "the check of what git finds runs without the pin",
    mutations: [{
      file: "src/repo_pin.ts",
      find: "ownRepository: true, // tether:guard pin-probe-own",
      replace: "ownRepository: false, // tether:guard pin-probe-own",
    }],
    file: PIN,
    filter: "observation 3 (b)",
  },
  {
    guard: "gate --since refuses a directory outside the work tree git names",
    mutations: [{
      file: "src/gate/repo.ts",
      find:
        'const problem = pinProblem({ top, gitDir, commonDir }, inside === "true"); // tether:guard pin-since',
      replace: "const problem: string | undefined = undefined; // tether:guard pin-since",
    }],
    file: PIN,
    filter: "observation 1 (c)",
  },
  {
    guard: "a spawn resolves and checks the parent's repository first",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "await pinHere(); // tether:guard wt-pin-spawn",
      replace: "// tether:guard wt-pin-spawn",
    }],
    file: PIN,
    filter: "observation 3 (d)",
  },
];

Deno.test("mutation: disabling each guard of the pinned repository makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
