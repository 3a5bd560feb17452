/**
 * Mutation tests for the guards that keep a child from hiding a change from `gate --since`
 * (reviews gate-4 to gate-8: docs/reviews/). With each guard disabled in a copy of the code
 * (its `// tether:guard` comment names it), the test of its finding fails: in
 * `tests/gate_hidden_change_test.ts` (forged commit-graph, assume-unchanged and
 * skip-worktree bits, weakened stat checks, submodule ignore settings, forged cache-tree and
 * subtree objects, unborn nested repositories, `core.ignorecase`, clean filters), and in
 * `tests/gate_status_blind_spots_test.ts`, `tests/gate_index_only_change_test.ts` and
 * `tests/gate_committed_change_test.ts` (the guards of gate's conversions are in
 * `tests/gate_conversions_mutation_test.ts`).
 * One module, so the unmutated copy runs once for all of them.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "no git call reads a commit-graph",
    mutations: [{
      file: "src/git.ts",
      find: '  "core.commitGraph=false", // tether:guard no-commit-graph\n',
      replace: '  "core.commitGraph=true",\n',
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "forged commit-graph",
  },
  {
    guard: "gate reads the entries status does not compare with the worktree",
    mutations: [{
      file: "src/gate/staged.ts",
      find: 'if (e.tag === "S" || /^[a-z]$/.test(e.tag)) paths.add(e.path);',
      replace: "if (e.tag === null) paths.add(e.path);",
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "is observed by gate",
  },
  {
    guard: "the status both sides run compares stat data in full",
    mutations: [{
      file: "src/context/status.ts",
      find:
        '  "core.trustctime=true", // tether:guard status-full-stat\n  "-c",\n  "core.checkStat=default",\n',
      replace: '  "core.tether=1",\n  "-c",\n  "core.tether=2",\n',
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "weakened stat checks",
  },
  {
    guard: "the status both sides run shows every submodule change",
    mutations: [{
      file: "src/context/status.ts",
      find: '  "--ignore-submodules=none", // tether:guard status-submodules\n',
      replace: "",
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "diff.ignoreSubmodules",
  },
  {
    guard: "gate compares the index with HEAD itself, not through the cache-tree",
    mutations: [{
      file: "src/gate/staged.ts",
      find: "if (root.id !== headTree) level.push(",
      replace: "if (root.id === null) level.push(",
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "forged cache-tree",
  },
  {
    guard: "a nested repository without a commit is not read as nothing",
    mutations: [{
      file: "src/context/content.ts",
      find: 'if (mode === "000000" && listed.has(`${path}/`)) out.set(path, UNBORN_REPOSITORY);',
      replace: 'if (mode === "000000" && listed.has("")) out.set(path, UNBORN_REPOSITORY);',
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "without a commit",
  },
  {
    guard: "the status both sides run compares names case-sensitively",
    mutations: [{
      file: "src/context/status.ts",
      find: '  "core.ignorecase=false", // tether:guard status-case\n',
      replace: '  "core.tether=3",\n',
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "only in case",
  },
  {
    guard: "the status both sides run turns every filter driver off",
    mutations: [{
      file: "src/context/status.ts",
      find: "await runGit([...pins, ...STATUS_ARGS], {",
      replace: "await runGit([...STATUS_ARGS], {",
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "clean filter the child plants",
  },
  {
    guard: "the status both sides run ignores the untracked cache",
    mutations: [{
      file: "src/context/status.ts",
      find: '  "core.untrackedCache=false", // tether:guard status-no-untracked-cache\n',
      replace: '  "core.tether=4",\n',
    }],
    file: "tests/gate_status_blind_spots_test.ts",
    filter: "a file dropped from a forged untracked cache is observed by gate --since",
  },
  {
    guard: "a name no index can hold is read by lstat, not taken for nothing",
    mutations: [{
      file: "src/context/content.ts",
      find: "} else if (mode === undefined) unindexed.push(path); // tether:guard unindexable-name",
      replace: "} else if (mode === null) unindexed.push(path);",
    }],
    file: "tests/gate_status_blind_spots_test.ts",
    filter: "files whose names no index can hold",
  },
  {
    guard: "private indexes fold no case",
    mutations: [{
      file: "src/context/lstat.ts",
      find: '  "core.ignorecase=false", // tether:guard private-index-case\n',
      replace: '  "core.tether=5",\n',
    }],
    file: "tests/gate_status_blind_spots_test.ts",
    filter: "under core.ignorecase",
  },
  {
    guard: "private indexes know no sparse patterns",
    mutations: [{
      file: "src/context/lstat.ts",
      find: '  "core.sparseCheckout=false", // tether:guard private-index-sparse\n',
      replace: '  "core.tether=6",\n',
    }],
    file: "tests/gate_status_blind_spots_test.ts",
    filter: "a new repository outside the sparse-checkout patterns",
  },
  {
    guard: "no filtered id where ident converts the content",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "if (!attributes.get(path)?.ident) content.filtered = id;",
      replace: "content.filtered = id;",
    }],
    file: "tests/gate_conversions_test.ts",
    filter: "under an ident attribute the spawn had",
  },
  {
    guard: "an absent skip-worktree entry is judged by the index only when the set is the spawn's",
    mutations: [{
      file: "src/gate/observe.ts",
      find:
        "if (git.skip_worktree !== undefined && git.skip_worktree === await pathSetDigest(skipped)) {",
      replace: "if (skipped.length >= 0) {",
    }],
    file: "tests/gate_hidden_change_test.ts",
    filter: "skip-worktree is observed",
  },
  {
    guard: "an index entry no file explains is a change",
    mutations: [{
      file: "src/gate/unexplained.ts",
      find: "if (!explained(entry, spawnVersions(path), now.get(path), unchanged(path))) {",
      replace: "if (entry === null) {",
    }],
    file: "tests/gate_status_blind_spots_test.ts",
    filter: "worktree put back",
  },
  {
    guard: "a HEAD leaf no file shows is a change",
    mutations: [{
      file: "src/gate/unexplained.ts",
      find:
        "if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-commit-content",
      replace: "if (leaf === null) {",
    }],
    file: "tests/gate_index_only_change_test.ts",
    filter: "file is put back",
  },
  {
    guard: "an index entry of another kind or exec bit than the file is not explained by it",
    mutations: [{
      file: "src/gate/versions.ts",
      find:
        "  if (kindOf(now.mode) !== kindOf(version.mode)) return false; // tether:guard gate-version-mode\n",
      replace: "  return true;\n",
    }],
    file: "tests/gate_index_only_change_test.ts",
    filter: "only the index has",
  },
  {
    guard: "a repository under a name no index holds is not taken for nothing",
    mutations: [{
      file: "src/context/content.ts",
      find: "else if (listed.has(`${path}/`)) out.set(path, UNINDEXABLE_REPOSITORY);",
      replace: "else if (listed.has(`${path}//`)) out.set(path, UNINDEXABLE_REPOSITORY);",
    }],
    file: "tests/gate_index_only_change_test.ts",
    filter: "name no index holds",
  },
  {
    guard: "paths under ident are read directly, not through status",
    mutations: [{
      file: "src/gate/live_state.ts",
      find: "const unchecked = [...new Set([...uncheckedEntries(index), ...staged, ...ident])];",
      replace: "const unchecked = [...new Set([...uncheckedEntries(index), ...staged])];",
    }],
    file: "tests/gate_index_only_change_test.ts",
    filter: "through ident",
  },
  {
    guard: "file evidence rests on what files hold, not on what only the index or HEAD has",
    mutations: [{
      file: "src/gate/observe.ts",
      find: "changed: new Set(held), // tether:guard gate-evidence-held",
      replace: "changed: new Set(observed),",
    }],
    file: "tests/gate_index_only_change_test.ts",
    filter: "onto another branch",
  },
  {
    guard: "a deletion HEAD has and the worktree does not show is a change",
    mutations: [{
      file: "src/gate/unexplained.ts",
      find:
        '    if (!now.has(path)) continue;\n    const leaf = trees.after.get(path) ?? "absent";\n',
      replace:
        '    if (!now.has(path) || !trees.after.has(path)) continue;\n    const leaf = trees.after.get(path) ?? "absent";\n',
    }],
    file: "tests/gate_committed_change_test.ts",
    filter: "a deletion committed while the file stays on disk is observed",
  },
  {
    guard: "a worktree that changed explains no index entry or HEAD leaf",
    mutations: [{
      file: "src/gate/versions.ts",
      find: "if (!unchanged || now === undefined) return false;",
      replace: "if (now === undefined) return false;",
    }],
    file: "tests/gate_committed_change_test.ts",
    filter: "text attribute",
  },
  {
    guard: "claims are confirmed by what files hold only",
    mutations: [{
      file: "src/gate/changes.ts",
      find: "classifyChanges(observation.held, claimed)",
      replace: "classifyChanges(observation.observed, claimed)",
    }],
    file: "tests/gate_committed_change_test.ts",
    filter: "a branch reset onto another branch",
  },
  {
    guard: "what the snapshot's branch holds is compared when HEAD is elsewhere",
    mutations: [{
      file: "src/gate/live_state.ts",
      find: "return tip === null || tip === liveHead || tip === spawnHead ? null : tip;",
      replace: "return tip === null || tip !== null ? null : tip;",
    }],
    file: "tests/gate_committed_change_test.ts",
    filter: "a commit left on the snapshot's branch",
  },
  {
    guard: "the branch comparison uses the full ref the snapshot recorded",
    mutations: [{
      file: "src/gate/live_state.ts",
      find: "git.ref === undefined ? git.branch : git.ref",
      replace: "git.branch",
    }],
    file: "tests/gate_committed_change_test.ts",
    filter: "the branch comparison finds the snapshot's branch when a tag has its name",
  },
];

Deno.test("mutation: disabling a hidden-change guard of gate makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the tests of gate's hidden-change guards", async () => {
  await assertControlPasses(CASES);
});
