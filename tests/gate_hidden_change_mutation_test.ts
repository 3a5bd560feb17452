/**
 * Mutation tests for the guards that keep a child from hiding a change from gate: with the
 * commit-graph read again by every git call (`// tether:guard no-commit-graph` in
 * `src/git.ts`), or with assume-unchanged and skip-worktree entries left to status
 * (`// tether:guard gate-unchecked` in `src/gate/repo.ts`), their tests fail.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [{
  guard: "no git call reads a commit-graph",
  mutations: [{
    file: "src/git.ts",
    find: '  "core.commitGraph=false", // tether:guard no-commit-graph\n',
    replace: '  "core.commitGraph=true",\n',
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "forged commit-graph",
}, {
  guard: "gate reads the entries status does not compare with the worktree",
  mutations: [{
    file: "src/gate/repo.ts",
    find: 'if (match && (match[1] === "S" || /^[a-z]$/.test(match[1]!))) paths.add(match[2]!);',
    replace: "if (match && false) paths.add(match[2]!);",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "is observed by gate",
}, {
  guard: "the status both sides run compares stat data in full",
  mutations: [{
    file: "src/context/status.ts",
    find:
      '  "core.trustctime=true", // tether:guard status-full-stat\n  "-c",\n  "core.checkStat=default",\n',
    replace: '  "core.tether=1",\n  "-c",\n  "core.tether=2",\n',
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "weakened stat checks",
}, {
  guard: "the status both sides run shows every submodule change",
  mutations: [{
    file: "src/context/status.ts",
    find: '  "--ignore-submodules=none", // tether:guard status-submodules\n',
    replace: "",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "diff.ignoreSubmodules",
}];

Deno.test("mutation: disabling a hidden-change guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the hidden-change tests", async () => {
  await assertControlPasses(CASES);
});
