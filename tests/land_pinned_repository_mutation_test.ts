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
      file: "src/git_pin.ts",
      find:
        "return { GIT_DIR: repository.gitDir, GIT_WORK_TREE: repository.top, ...common }; // tether:guard pin-env",
      replace: "return {}; // tether:guard pin-env",
    }],
    file: PIN,
    filter: "a core.worktree written into the shared config",
  },
  {
    guard: "the read-back reads the pinned work tree, not the one a late core.worktree names",
    mutations: [{
      file: "src/git_pin.ts",
      find:
        "return { GIT_DIR: repository.gitDir, GIT_WORK_TREE: repository.top, ...common }; // tether:guard pin-env",
      replace: "return {}; // tether:guard pin-env",
    }],
    file: PIN,
    filter: "a link checked out as a file",
  },
  {
    guard: "a repository that moved during the land is said after it",
    mutations: [{
      file: "src/worktree/land_write.ts",
      find: "if (movedAfter !== undefined) { // tether:guard wt-pin-after",
      replace: 'if (movedAfter === "") { // tether:guard wt-pin-after',
    }],
    file: PIN,
    filter: "a core.worktree written into the shared config",
  },
  {
    guard: "a main git dir naming another common dir is refused at the start",
    mutations: [{
      file: "src/repo_pin.ts",
      find: "if (repo.gitDir !== repo.commonDir && !linked) { // tether:guard pin-commondir",
      replace: 'if (repo.gitDir === "") { // tether:guard pin-commondir',
    }],
    file: PIN,
    filter: "a commondir file planted in the parent's git dir before the run is refused",
  },
  {
    guard: "a repository that moved before the checkout stops the land",
    mutations: [{
      file: "src/worktree/land_refusals.ts",
      find: "if (moved !== undefined) { // tether:guard wt-pin-before",
      replace: 'if (moved === "") { // tether:guard wt-pin-before',
    }],
    file: PIN,
    filter: "a commondir file written during the run",
  },
  {
    guard: "the check of what git finds runs without the pin",
    mutations: [{
      file: "src/repo_pin.ts",
      find: "ownRepository: true, // tether:guard pin-probe-own",
      replace: "ownRepository: false, // tether:guard pin-probe-own",
    }],
    file: PIN,
    filter: "a commondir file written during the run",
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
    filter: "gate --since refuses to judge a tree git finds elsewhere",
  },
  {
    guard: "a spawn resolves and checks the parent's repository first",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "await pinHere(cwd); // tether:guard wt-pin-spawn",
      replace: "// tether:guard wt-pin-spawn",
    }],
    file: PIN,
    filter: "handshake --worktree refuses a parent whose git dir holds a planted commondir",
  },
];

Deno.test("mutation: disabling each guard of the pinned repository makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
