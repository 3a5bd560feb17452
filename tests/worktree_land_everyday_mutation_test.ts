/**
 * Mutation tests for what lets worktree mode work in the repositories people have, and
 * for the pins and refusals that keep a filter or driver from running while it does: each
 * disables one guard (marked `// tether:guard …` on its line) in a copy of the code and
 * shows that its test then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const EVERYDAY = "tests/worktree_land_everyday_test.ts";
const FILTERS = "tests/worktree_land_filters_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "the spawn sets the child's staged state index-only",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: '"read-tree", "-m", "-i", "--end-of-options", state.index], opts); // tether:guard',
      replace: '"read-tree", "-m", "--end-of-options", state.index], opts); // tether:guard',
    }],
    file: EVERYDAY,
    // Every Gradle test spawns: git refuses the stage whenever a file is racily clean.
    filter: "a Gradle wrapper's *.bat text eol=crlf",
  },
  {
    guard: "the spawn marks the parent's absent skip-worktree entries so in the child",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "if (skipped.length > 0) { // tether:guard wt-spawn-skip-worktree",
      replace: "if (skipped.length < 0) { // tether:guard wt-spawn-skip-worktree",
    }],
    file: EVERYDAY,
    filter: "a cone-mode sparse checkout",
  },
  {
    guard: "worktree mode's fingerprint leaves out a submodule's own working tree",
    mutations: [{
      file: "src/worktree/carried_status.ts",
      find: 'if (line[1] === "M" && line[2] === " " && shown.has(',
      replace: 'if (line[1] === "never" && shown.has(',
    }],
    file: EVERYDAY,
    filter: "a submodule with uncommitted work",
  },
  {
    guard: "a submodule checked out at another commit is refused at spawn",
    mutations: [{
      file: "src/worktree/spawn_capture.ts",
      find: "if (moved.length > 0) { // tether:guard wt-spawn-moved-submodule",
      replace: "if (moved.length < 0) { // tether:guard wt-spawn-moved-submodule",
    }],
    file: EVERYDAY,
    filter: "a submodule checked out at another commit",
  },
  {
    guard: "a landing file stale only through its conversion gets git's own entry",
    mutations: [{
      file: "src/worktree/land_checkout.ts",
      find:
        "const stale = decodePaths(listed.stdout).filter((p) => landing.has(p)); // tether:guard",
      replace: "const stale = decodePaths(listed.stdout).filter(() => false); // tether:guard",
    }],
    file: EVERYDAY,
    filter: "a CRLF edit of gradlew.bat itself lands byte for byte",
  },
  {
    guard: "a land that changes only what the conversion hides is refused",
    mutations: [{
      file: "src/worktree/land_checkout.ts",
      find: "if (hidden.length > 0) { // tether:guard wt-land-hidden",
      replace: "if (hidden.length < 0) { // tether:guard wt-land-hidden",
    }],
    file: EVERYDAY,
    filter: "a CRLF file under text whose child only changed its line ends",
  },
  {
    guard: "a configured filter is refused where both sides changed the file",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "else if (drivers.filters.includes(a.value) && merging.has(a.path)) refuse(a, true);",
      replace: "else if (merging.size < 0) refuse(a, true);",
    }],
    file: FILTERS,
    filter: "a text file under a configured filter that both sides changed",
  },
  {
    guard: "every filter an attribute names at a landing path is pinned to none",
    mutations: [{
      file: "src/worktree/land_read.ts",
      find: "const drivers = withFilters(readDriversAtStart, verdict.filters); // tether:guard",
      replace: "const drivers = withFilters(readDriversAtStart, []); // tether:guard",
    }, {
      file: "src/worktree/land_refusals.ts",
      find: "const drivers = withFilters(parent.drivers, written.filters); // tether:guard",
      replace: "const drivers = withFilters(parent.drivers, []); // tether:guard",
    }],
    file: FILTERS,
    filter: "a filter driver a child defines while the land runs never runs",
  },
  {
    guard: "a failed git call is said in tether's words",
    mutations: [{
      file: "src/git_failure.ts",
      find: "if (!isGitsOwn(error)) return error instanceof Error ? error.message : String(error);",
      replace: "return error instanceof Error ? error.message : String(error);",
    }],
    file: "tests/land_checkout_died_test.ts",
    filter: "a checkout",
  },
];

Deno.test("mutation: disabling each guard of everyday worktree lands makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
