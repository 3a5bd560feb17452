/**
 * Mutation tests for the guards of spawned children and the harness form (the harness form
 * fails closed, claims by exact path bytes, each child's own working context, intent-to-add
 * entries, a failed spawn's clean-up): each disables one guard (marked
 * `// tether:guard wt-…`) in a copy of the code and shows that its test in
 * tests/worktree_harness_spawn_test.ts fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_harness_spawn_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "harness form: an unresolvable parent directory is a mismatch, never a skipped check",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "} else if (facts.sameRepository === undefined) { // tether:guard",
      replace: "} else if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "stays a mismatch once the parent's directory is gone",
  },
  {
    guard: "the parent's directory is resolved without the child's git environment",
    mutations: [{
      file: "src/worktree/verify.ts",
      find: "{ cwd, cleanEnv: true, neutralStart: true }), // tether:guard",
      replace: "{ cwd }), // tether:guard",
    }],
    file: FILE,
    filter: "GIT_DIR in the child's environment",
  },
  {
    guard: "linked means a git dir at <common>/worktrees/<id>",
    mutations: [{
      file: "src/worktree/verify.ts",
      find: 'return id !== "" && !id.includes("/"); // tether:guard',
      replace: "return gitDir !== commonDir; // tether:guard",
    }],
    file: FILE,
    filter: "is no linked worktree",
  },
  {
    guard: "tether-made form: the named path must hold a linked worktree",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "} else if (facts.linked !== true) { // tether:guard wt-named-linked",
      replace: "} else if (false) { // tether:guard wt-named-linked",
    }],
    file: FILE,
    filter: "tether-made form: a clone standing at the named path",
  },
  {
    guard: "invalid path bytes stay apart (surrogate escape)",
    mutations: [{
      file: "src/paths.ts",
      find: "out += String.fromCharCode(0xdc00 + bytes[i]!); // tether:guard",
      replace: 'out += "\\ufffd"; // tether:guard',
    }],
    file: FILE,
    filter: "not UTF-8",
  },
  {
    guard: "changed paths are decoded exactly (no lossy decode, no dropped BOM)",
    mutations: [{
      file: "src/seed/state.ts",
      find: "return decodePaths(stdout); // tether:guard",
      replace:
        'return new TextDecoder().decode(stdout).split("\\0").filter((p) => p !== ""); // tether:guard',
    }],
    file: FILE,
    filter: "byte-order mark",
  },
  {
    guard: "an intent-to-add entry is carried as one",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "if (ita.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "is carried as one",
  },
  {
    guard: "an intent-to-add entry whose file is deleted is refused, naming it",
    mutations: [{
      file: "src/worktree/spawn_capture.ts",
      find: "if (ita.deleted.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "whose file is deleted",
  },
  {
    guard: "a failed spawn removes the directories git created for it",
    mutations: [{
      file: "src/worktree/spawn_undo.ts",
      find: "await removeEmptyDirs(made.created); // tether:guard",
      replace: "// tether:guard",
    }],
    file: FILE,
    filter: "fails after making worktrees",
  },
  {
    guard: "a failed spawn removes the seed ref it wrote for nobody",
    mutations: [{
      file: "src/worktree/spawn_undo.ts",
      find:
        'await runGit(["update-ref", "-d", ref, seed], { allowFailure: true }); // tether:guard',
      replace: "// tether:guard",
    }],
    file: FILE,
    filter: "fails after making worktrees",
  },
  {
    guard: "a failed spawn keeps a seed ref that existed before it",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "if (before.code !== 0 && seed === expected) { // tether:guard",
      replace: "if (seed === expected) { // tether:guard",
    }],
    file: FILE,
    filter: "fails after making worktrees",
  },
  {
    guard: "a spawned child's working context is captured in its own worktree",
    mutations: [{
      file: "src/worktree/handshake.ts",
      find: "cwd: child.cwd, // tether:guard",
      replace: "// tether:guard",
    }],
    file: FILE,
    filter: "working context of its own worktree",
  },
  {
    guard: "the harness form's working context names no path and no git part",
    mutations: [{
      file: "src/worktree/handshake.ts",
      find: 'audience: "public" }) // tether:guard',
      replace: 'audience: "private" }) // tether:guard',
    }],
    file: FILE,
    filter: "the harness makes the worktree",
  },
  {
    guard: "the hook's isolation:worktree context names no path and no git part",
    mutations: [{
      file: "src/harness/claude/pretooluse.ts",
      find: 'audience: isolated ? "public" : options.audience, // tether:guard',
      replace: "audience: options.audience, // tether:guard",
    }],
    file: FILE,
    filter: "hook --context",
  },
];

Deno.test("mutation: disabling each guard of spawned children and the harness form makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
