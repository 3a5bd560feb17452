/**
 * Mutation tests for the worktree-mode guards: each disables one guard (marked
 * `// tether:guard wt-…` on its line) in a copy of the code and shows that its test then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "verify matches only in the named worktree",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "if (!facts.samePath) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_verify_test.ts",
    filter: "sibling's worktree",
  },
  {
    guard: "harness form never matches a main worktree",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "if (!facts.linked) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_verify_test.ts",
    filter: "are told apart",
  },
  {
    guard: "harness form names a worktree of another repository",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "} else if (facts.sameRepository === false) { // tether:guard",
      replace: "} else if (false) { // tether:guard",
    }],
    file: "tests/worktree_verify_test.ts",
    filter: "another repository",
  },
  {
    guard: "verify compares the content state with the seed",
    mutations: [{
      file: "src/worktree/decide.ts",
      find: "} else if (facts.stateSeed !== block.seed) { // tether:guard",
      replace: "} else if (false) { // tether:guard",
    }],
    file: "tests/worktree_verify_test.ts",
    filter: "changed staged state",
  },
  {
    guard: "a change the child did not claim is rejected and never lands",
    mutations: [{
      file: "src/worktree/gate.ts",
      find: "if (changes.observed_unclaimed.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_land_test.ts",
    filter: "unclaimed",
  },
  {
    guard: "the land merges against the seed, not the parent's HEAD",
    mutations: [{
      file: "src/worktree/land_merge.ts",
      find: "let baseTreeId = seedTree; // tether:guard wt-merge-base",
      replace: "let baseTreeId = `${child.seedState.head}^{tree}`; // tether:guard wt-merge-base",
    }],
    file: "tests/worktree_land_test.ts",
    filter: "committed and uncommitted",
  },
  {
    guard: "a spawn creates its branch only when the name is free",
    mutations: [
      {
        file: "src/worktree/spawn_branches.ts",
        find: "`create refs/heads/${name} ${head}\\n` + // tether:guard",
        replace: "`update refs/heads/${name} ${head}\\n` + // tether:guard",
      },
      {
        file: "src/worktree/spawn_branches.ts",
        find: "`create ${SPAWN_REF_PREFIX}",
        replace: "`update ${SPAWN_REF_PREFIX}",
      },
    ],
    file: "tests/worktree_spawn_test.ts",
    filter: "at once",
  },
  {
    guard:
      "the land's scratch index is fresh and the parent's, never a name in the child's git dir",
    mutations: [{
      file: "src/worktree/land_read.ts",
      find: "const scratch = await seedIndexPath(parentTop); // tether:guard",
      replace: "const scratch = `${child.gitDir}/tether-land-index`; // tether:guard",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "finding 2",
  },
  {
    guard: "a child whose own git reports another top level (core.worktree) is refused",
    mutations: [{
      file: "src/worktree/child_work.ts",
      find: "probe.code !== 0 || shown !== top || common !== here || // tether:guard",
      replace: "probe.code !== 0 || false || common !== here || // tether:guard",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "finding 4",
  },
  {
    guard: "the spawn ref must point at the seed the parent gives",
    mutations: [{
      file: "src/worktree/child_work.ts",
      find: "if (recorded !== undefined && recorded !== seed) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "finding 5",
  },
  {
    guard: "the child's branch is the one spawn made for that seed",
    mutations: [{
      file: "src/worktree/identity.ts",
      find: "if (ref === undefined || !/^[1-9][0-9]*$/.test(n)) { // tether:guard",
      replace: "if (ref === undefined) { // tether:guard",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "finding 5",
  },
  {
    guard: "a branch checked out by two worktrees is refused",
    mutations: [{
      file: "src/worktree/identity.ts",
      find: "if (other !== undefined) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "finding 7",
  },
  {
    guard: "a branch a worktree still has checked out is never deleted",
    mutations: [{
      file: "src/worktree/remove.ts",
      find: "if (holder !== undefined) return",
      replace: "if (false) return",
    }],
    file: "tests/worktree_identity_test.ts",
    filter: "cannot be removed",
  },
  {
    guard: "reading the child hashes raw bytes: no clean filter runs",
    mutations: [{
      file: "src/context/raw_tree.ts",
      find: '["--no-filters", "-w"], // GUARD:raw-no-filters',
      replace: '["-w"], // GUARD:raw-no-filters',
    }],
    file: "tests/worktree_content_test.ts",
    filter: "no clean filter or hook",
  },
  {
    guard: "reading the child runs no hook",
    mutations: [
      {
        file: "src/context/raw_tree.ts",
        find: '"core.hooksPath=/dev/null", // GUARD:raw-no-hooks',
        replace: '"advice.waitingForEditor=false", // GUARD:raw-no-hooks',
      },
      {
        file: "src/seed/state.ts",
        find: '"core.hooksPath=/dev/null", // GUARD:seed-no-hooks',
        replace: '"advice.waitingForEditor=false", // GUARD:seed-no-hooks',
      },
      {
        // The runner now turns hooks off on every call (review worktree-5 finding 4).
        file: "src/git.ts",
        find: '"core.hooksPath=/dev/null", // tether:guard no-hooks',
        replace: '"advice.waitingForEditor=false", // tether:guard no-hooks',
      },
    ],
    file: "tests/worktree_content_test.ts",
    filter: "no clean filter or hook",
  },
  {
    guard: "gate --worktree reads file evidence from the child's raw capture",
    mutations: [{
      file: "src/worktree/gate.ts",
      find:
        "inspect: (_top, paths) => Promise.resolve(inspectCaptured(child.files, paths)), // tether:guard",
      replace: "// tether:guard",
    }, {
      // Reading the live worktree pins every filter too (review gate-12, F3): both go.
      file: "src/gate/repo.ts",
      find: "const pins = await readFilterPins(top); // tether:guard gate-evidence-pins",
      replace: "const pins: string[] = [];",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "no clean filter or hook",
  },
  {
    guard: "gate --worktree checks evidence against what the child did since its seed",
    mutations: [{
      file: "src/worktree/gate.ts",
      find: "spawn, // tether:guard wt-new-evidence",
      replace: "// tether:guard wt-new-evidence",
    }],
    file: "tests/worktree_evidence_test.ts",
    filter: "pre-spawn HEAD",
  },
  {
    guard: "in worktree mode a commit is new only when the child made it",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "new Set(recent.filter((oid) => known.has(oid))) // tether:guard wt-new-commit",
      replace: "new Set(recent) // tether:guard wt-new-commit",
    }],
    file: "tests/worktree_evidence_test.ts",
    filter: "pre-spawn HEAD",
  },
  {
    guard: "the land re-hashes every blob it writes",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: 'if (leaf?.kind !== "ok" || leaf.type !== "blob") throw forged(oid); // tether:guard',
      replace: "if (false) throw forged(oid); // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "loose object",
  },
  {
    guard: "the land refuses ignored files and directories in the way",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: "if (asked.has(path)) found.add(path); // tether:guard",
      replace: "if (false) found.add(path); // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "ignored file",
  },
  {
    guard: "the land refuses ignored entries below a path it writes or deletes",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: "else if (belowAny(path, landing)) found.add(path); // tether:guard",
      replace: "else if (false) found.add(path); // tether:guard",
    }],
    file: "tests/worktree_land_guard_test.ts",
    filter: "below a directory the child replaces",
  },
  {
    guard: "the land refuses a nested repository (gitlink) the child changed",
    mutations: [{
      file: "src/worktree/land.ts",
      find:
        'if (nested.length > 0) return { status: "refused", reason: "nested", paths: nested }; // tether:guard',
      replace:
        'if (false) return { status: "refused", reason: "nested", paths: nested }; // tether:guard',
    }, {
      // The tree walk before the checkout refuses the child's gitlink too (review worktree-8).
      file: "src/worktree/land_refusals.ts",
      find:
        'if (gitlinks.length > 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
      replace:
        'if (gitlinks.length < 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
    }],
    file: "tests/worktree_land_guard_test.ts",
    filter: "nested repository",
  },
  {
    guard: "the land changes only paths the child changed",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: "return landing.filter((p) => !own.has(p)); // tether:guard",
      replace: "return landing.filter((p) => !own.has(p) && false); // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "renamed",
  },
  {
    guard: "a spawn compares the child's bytes with the parent's",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "if (paths.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "rewrite the parent's bytes",
  },
  {
    guard: "a spawn's check of a fresh checkout compares every file's raw bytes",
    mutations: [{
      file: "src/seed/state.ts",
      find: "if (ids.get(path) !== expected.get(path)!.oid) differs.add(path); // tether:guard",
      replace: "if (false) differs.add(path); // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "rewrite the parent's bytes",
  },
  {
    guard: "a spawn's check of a fresh checkout compares every file's mode",
    mutations: [{
      file: "src/seed/state.ts",
      find: "if (mode !== expected.get(path)?.mode) differs.add(path); // tether:guard",
      replace: "if (false) differs.add(path); // tether:guard",
    }],
    file: "tests/worktree_content_test.ts",
    filter: "another mode than the parent's",
  },
];

Deno.test("mutation: disabling each worktree-mode guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every worktree test the mutations break", async () => {
  await assertControlPasses(CASES);
});
