/**
 * Mutation tests for the guards of review worktree-8 (a gitlink at a landing path refused on
 * every side, every failure after the checkout said as a written land and undone, the pin
 * asked around the clean-up, the undo's bytes taken from the tree's id): each disables one
 * guard (marked `// tether:guard …` on its line) in a copy of the code and shows that its
 * test in `tests/review8_land_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const LAND = "tests/review8_land_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "a landing path that is a gitlink in the parent, the seed or the child is refused",
    mutations: [{
      file: "src/worktree/land_refusals.ts",
      find:
        'if (gitlinks.length > 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
      replace:
        'if (gitlinks.length < 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
    }],
    file: LAND,
    filter: "finding 1 (a)",
  },
  {
    guard: "a submodule's removal is refused, not undone as a raced filter",
    mutations: [{
      file: "src/worktree/land_refusals.ts",
      find:
        'if (gitlinks.length > 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
      replace:
        'if (gitlinks.length < 0) return { status: "refused", reason: "nested", paths: gitlinks }; // tether:guard wt-land-gitlink-refused',
    }],
    file: LAND,
    filter: "finding 2",
  },
  {
    guard: "the tree walk notes every gitlink at or above a landing path",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find:
        '} else if (entry.mode === "160000") gitlinks.add(slash < 0 ? path : path.slice(0, slash)); // tether:guard wt-land-gitlink',
      replace: '} else if (entry.mode === "160000") {} // tether:guard wt-land-gitlink',
    }],
    file: LAND,
    filter: "finding 1 (b)",
  },
  {
    guard: "a read-back that fails is said as a written land and undone",
    mutations: [{
      file: "src/worktree/land_write.ts",
      find:
        "if (!(error instanceof NotAsChecked)) throw await readBackFailed(error, land); // tether:guard wt-readback-failed",
      replace:
        "if (!(error instanceof NotAsChecked)) throw error; // tether:guard wt-readback-failed",
    }],
    file: LAND,
    filter: "finding 4 (a)",
  },
  {
    guard: "a check after the read-back that fails is said as a written land and undone",
    mutations: [{
      file: "src/worktree/land_write.ts",
      find:
        "throw await undoLand(`its check after the read-back failed (${ownWords(error)})`, land); // tether:guard wt-after-failed",
      replace: "throw error; // tether:guard wt-after-failed",
    }],
    file: LAND,
    filter: "finding 4 (c)",
  },
  {
    guard: "a checkout that failed after writing is said and undone",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "if (wrote.length === 0) { // tether:guard wt-checkout-wrote",
      replace: "if (wrote.length >= 0) { // tether:guard wt-checkout-wrote",
    }],
    file: LAND,
    filter: "finding 4 (d)",
  },
  {
    guard: "a repository moved during the clean-up is never reported as removed",
    mutations: [{
      file: "src/worktree/remove.ts",
      find: "if (movedAfter !== undefined) { // tether:guard wt-pin-remove-after",
      replace: 'if (movedAfter === "") { // tether:guard wt-pin-remove-after',
    }],
    file: LAND,
    filter: "observation 4 (a)",
  },
  {
    guard: "nothing is removed once the repository moved",
    mutations: [{
      file: "src/worktree/remove.ts",
      find: "if (movedBefore !== undefined) { // tether:guard wt-pin-remove-before",
      replace: 'if (movedBefore === "") { // tether:guard wt-pin-remove-before',
    }],
    file: LAND,
    filter: "observation 4 (b)",
  },
  {
    guard: "a record anchored while the repository moved is not said to be anchored",
    mutations: [{
      file: "src/worktree/land.ts",
      find:
        "const unanchored = await anchorRecord(child.branch, kept) ?? await movedSince(); // tether:guard wt-pin-anchor",
      replace:
        "const unanchored = await anchorRecord(child.branch, kept); // tether:guard wt-pin-anchor",
    }],
    file: LAND,
    filter: "observation 4 (c)",
  },
  {
    guard: "the undo writes the parent's bytes from the tree's id, not from a scratch index",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "`--source=${land.before}`, // tether:guard wt-undo-from-tree",
      replace: '"--worktree", // tether:guard wt-undo-from-tree',
    }],
    file: LAND,
    filter: "observation 5",
  },
];

Deno.test("mutation: disabling each guard of review worktree-8 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
