/**
 * Mutation tests for the guards of review worktree-7 (the land's git calls pinned to the
 * repository resolved at the start, links under `core.symlinks`, a land undone when its
 * read-back fails): each disables one guard (marked `// tether:guard …` on its line) in a
 * copy of the code and shows that its test in `tests/review7_*_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const PIN = "tests/review7_pin_test.ts";
const LINKS = "tests/review7_links_test.ts";
const UNDO = "tests/review7_undo_test.ts";

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
      file: "src/worktree/land_write.ts",
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
      file: "src/worktree/land_refusals.ts",
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
      find: "await pinHere(cwd); // tether:guard wt-pin-spawn",
      replace: "// tether:guard wt-pin-spawn",
    }],
    file: PIN,
    filter: "observation 3 (d)",
  },
  {
    guard: "a link is not landed while core.symlinks is false",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find:
        'return paths.filter((p) => tree.get(p)?.mode === "120000"); // tether:guard wt-land-links',
      replace: "return []; // tether:guard wt-land-links",
    }],
    file: LINKS,
    filter: "observation 2 (a)",
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
    filter: "observation 2 (b)",
  },
  {
    guard: "an undone land writes the parent's files back",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: '"restore", // tether:guard wt-undo-land',
      replace: '"version", // tether:guard wt-undo-land',
    }],
    file: UNDO,
    filter: "observation 4 (a)",
  },
  {
    guard: "an undone land removes the files it added",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find:
        '[...pins, "rm", "-f", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], // tether:guard wt-undo-gone',
      replace: '[...pins, "version"], // tether:guard wt-undo-gone',
    }],
    file: UNDO,
    filter: "observation 4 (a)",
  },
  {
    guard: "a land is not undone through a conversion still named",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "if (still.length > 0) { // tether:guard wt-undo-still",
      replace: "if (still.length < 0) { // tether:guard wt-undo-still",
    }],
    file: UNDO,
    filter: "observation 4 (b)",
  },
];

Deno.test("mutation: disabling each guard of review worktree-7 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
