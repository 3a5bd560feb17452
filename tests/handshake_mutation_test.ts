/**
 * Mutation tests for the handshake and verify guards: each disables one guard in a copy
 * of the code and shows that the tests guarding it then fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
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
    guard: "capture taken again when HEAD moves during status",
    mutations: [{
      file: "src/handshake/capture.ts",
      find:
        "const still = after.reflog === reflog && after.head === head && after.ref === attached;",
      replace: "const still = true;",
    }],
    file: "tests/handshake_test.ts",
    filter: "retries a capture",
  },
  {
    guard: "f4: HEAD's reflog unchanged across status (a HEAD that moved away and back)",
    mutations: [{
      file: "src/handshake/capture.ts",
      find:
        "const still = after.reflog === reflog && after.head === head && after.ref === attached;",
      replace: "const still = after.head === head && after.ref === attached;",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "moves away and back",
  },
  {
    guard:
      "issue 10: HEAD read again after status, a move no reflog records (the branch rewritten)",
    mutations: [{
      file: "src/handshake/capture.ts",
      find:
        "const still = after.reflog === reflog && after.head === head && after.ref === attached;",
      replace: "const still = after.reflog === reflog && after.ref === attached;",
    }],
    file: "tests/verify_scale_test.ts",
    filter: "the branch moved while status runs",
  },
  {
    guard: "issue 10: the HEAD file read after status must name the branch read before it",
    mutations: [{
      file: "src/handshake/capture.ts",
      find:
        "if (!(await blobIds(headFileText(ref, head))).includes(ids[0]!)) return undefined; // tether:guard f4-head-file",
      replace: "",
    }],
    file: "tests/verify_scale_test.ts",
    filter: "HEAD put on another branch while status runs",
  },
  {
    guard: "issue 10: status starts only once the first reflog read has answered",
    mutations: [
      {
        file: "src/handshake/capture.ts",
        find: "const before = await reading; // tether:guard f4-reflog-first\n" +
          "  // Every move of HEAD from here on is in a reflog read above.\n" +
          "  const running = runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV, keepReplaceObjects: true });",
        replace:
          "const running = runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV, keepReplaceObjects: true });\n" +
          "  const before = await reading;",
      },
    ],
    file: "tests/verify_scale_test.ts",
    filter: "verify starts status only once the first reflog read has answered",
  },
  {
    guard: "f1: the probe asks git once without the caller's environment",
    mutations: [{
      file: "src/handshake/probe.ts",
      find: "cleanEnv: true, // tether:guard f1-clean-probe",
      replace: "cleanEnv: false,",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "GIT_DIR/GIT_WORK_TREE point at",
  },
  {
    guard: "f1: both answers must agree",
    mutations: [{
      file: "src/handshake/probe.ts",
      find: "if (clean.code !== 0 || decoder.decode(clean.stdout) !== text) {",
      replace: "if (false) {",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "GIT_INDEX_FILE that hides",
  },
  {
    guard: "f1: where git found the repository must be the same with and without the environment",
    mutations: [{
      file: "src/handshake/probe.ts",
      find:
        'setup !== undefined && cleanSetup?.join("\\n") === setup.join("\\n"); // tether:guard f1-same-setup',
      replace: "true;",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "GIT_DIR/GIT_WORK_TREE point at",
  },
  {
    guard: "f1: the index and the objects must be the defaults, or the probe is asked again",
    mutations: [{
      file: "src/handshake/probe.ts",
      find:
        "index === `${gitDir}index` && objects === `${commonDir}objects`; // tether:guard f1-default-paths",
      replace: "true;",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "GIT_INDEX_FILE that hides",
  },
  {
    guard: "f1: the probe asked again runs without the caller's environment",
    mutations: [{
      file: "src/handshake/probe.ts",
      find: "cleanEnv: true, // tether:guard f1-clean-fallback",
      replace: "cleanEnv: false,",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "GIT_INDEX_FILE that hides",
  },
  {
    guard: "f1: parent_cwd always compared with git's location, never assumed equal",
    mutations: [{
      file: "src/handshake/verification.ts",
      find: "const sameCwd = resolved !== undefined && resolved === live.location;",
      replace: "const sameCwd = true;",
    }],
    file: "tests/verify_test.ts",
    filter: "symlinked spelling",
  },
  {
    guard: "f2: a value is never trimmed at its end",
    mutations: [{
      file: "src/handshake/block.ts",
      find: `const value = line.slice(colon + 1).replace(/^[ \\t]+/, "");`,
      replace: "const value = line.slice(colon + 1).trim();",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "bash parent's path never matches",
  },
  {
    guard: "f2: a value with white space at either end is refused",
    mutations: [{
      file: "src/handshake/fields.ts",
      find: "if (value.trim() !== value) {",
      replace: "if (false) {",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "bash parent's path never matches",
  },
  {
    guard: "f3: the branch compared as a ref",
    mutations: [{
      file: "src/handshake/verification.ts",
      find: "branchRef(expected.parent_branch) === live.headRef; // tether:guard f3-branch-ref",
      replace: "expected.parent_branch === observed.parent_branch;",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "remote-tracking ref",
  },
  {
    guard: "f3: a branch named HEAD is the error path",
    mutations: [{
      file: "src/handshake/verification.ts",
      find: `if (live.headRef === "refs/heads/HEAD") {`,
      replace: "if (false) {",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "branch named HEAD",
  },
  {
    guard: "f5: parent_cwd naming whoever asks is refused",
    mutations: [{
      file: "src/handshake/fields.ts",
      find: "return namesWhoeverAsks(value) // tether:guard f5-whoever-asks",
      replace: "return false",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "parent_cwd /proc/self/cwd",
  },
  {
    guard: "f5: git resolves parent_cwd from /, not from the asker's directory",
    mutations: [{
      file: "src/handshake/location.ts",
      find: "neutralStart: true, // tether:guard f5-neutral-start",
      replace: "",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "parent_cwd /proc/self/cwd",
  },
  {
    guard: "f6: the first block is the handshake",
    mutations: [{
      file: "src/handshake/block.ts",
      find: "const start = opens[0]!; // tether:guard f6-first-block",
      replace: "const start = opens[opens.length - 1]!;",
    }],
    file: "tests/verify_false_match_test.ts",
    filter: "re-wrapping",
  },
  {
    guard: "a directory outside the work tree has no location",
    mutations: [{
      file: "src/handshake/location.ts",
      find: `if (inside !== "true" || `,
      replace: "if (false || ",
    }],
    file: "tests/verify_test.ts",
    filter: "core.worktree elsewhere",
  },
];

Deno.test("mutation: disabling each handshake/verify guard makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the mutations break", async () => {
  await assertControlPasses(CASES);
});
