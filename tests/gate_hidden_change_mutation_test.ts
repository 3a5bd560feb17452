/**
 * Mutation tests for the guards that keep a child from hiding a change from gate: with the
 * commit-graph read again by every git call (`// tether:guard no-commit-graph` in
 * `src/git.ts`), or with assume-unchanged and skip-worktree entries left to status
 * (`// tether:guard gate-unchecked` in `src/gate/staged.ts`), with the index compared with HEAD
 * through status's caches again (`gate-staged-descend`), with a nested repository without a
 * commit read as nothing (`unborn-nested` in `src/context/content.ts`), or with the shared
 * config's `core.ignorecase` left to status (`status-case`), or with its filter drivers run by
 * status (`status-no-filters`), their tests fail.
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
    file: "src/gate/staged.ts",
    find: 'if (e.tag === "S" || /^[a-z]$/.test(e.tag)) paths.add(e.path);',
    replace: "if (e.tag === null) paths.add(e.path);",
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
}, {
  guard: "gate compares the index with HEAD itself, not through the cache-tree",
  mutations: [{
    file: "src/gate/staged.ts",
    find: "if (root.id !== headTree) level.push(",
    replace: "if (root.id === null) level.push(",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "forged cache-tree",
}, {
  guard: "gate reads HEAD's trees checked where the index differs from them",
  mutations: [{
    file: "src/gate/staged.ts",
    find: "if (root.id !== headTree) level.push(",
    replace: "if (root.id === null) level.push(",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "forged subtree object",
}, {
  guard: "a nested repository without a commit is not read as nothing",
  mutations: [{
    file: "src/context/content.ts",
    find: 'if (mode === "000000" && listed.has(`${path}/`)) out.set(path, UNBORN_REPOSITORY);',
    replace: 'if (mode === "000000" && listed.has("")) out.set(path, UNBORN_REPOSITORY);',
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "without a commit",
}, {
  guard: "the status both sides run compares names case-sensitively",
  mutations: [{
    file: "src/context/status.ts",
    find: '  "core.ignorecase=false", // tether:guard status-case\n',
    replace: '  "core.tether=3",\n',
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "only in case",
}, {
  guard: "the status both sides run turns every filter driver off",
  mutations: [{
    file: "src/context/status.ts",
    find: "await runGit([...filterPins(drivers.filters), ...STATUS_ARGS], {",
    replace: "await runGit([...STATUS_ARGS], {",
  }],
  file: "tests/gate_hidden_change_test.ts",
  filter: "clean filter the child plants",
}];

Deno.test("mutation: disabling a hidden-change guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the hidden-change tests", async () => {
  await assertControlPasses(CASES);
});
