/**
 * Mutation tests for the guards that refuse a gitlink at a landing path on every side, say
 * every failure after the checkout as a written land and undo it, ask the pin around the
 * clean-up, and take the undo's bytes from the tree's id: each disables one guard (marked
 * `// tether:guard …` on its line) in a copy of the code and shows that its test in
 * `tests/land_submodules_and_failures_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const LAND = "tests/land_submodules_and_failures_test.ts";

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
    filter: "an embedded repository of the parent replaced by a file is refused",
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
    filter: "a child that removes a submodule is refused with the clear message",
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
    filter: "a submodule replaced by a link is refused",
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
    filter: "a config broken right after the checkout",
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
    filter: "a config broken before the last check",
  },
  {
    guard: "a checkout that failed after writing is said and undone",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "if (wrote.length === 0) { // tether:guard wt-checkout-wrote",
      replace: "if (wrote.length >= 0) { // tether:guard wt-checkout-wrote",
    }],
    file: LAND,
    filter: "a checkout that fails after writing is undone",
  },
  {
    guard: "a repository moved during the clean-up is never reported as removed",
    mutations: [{
      file: "src/worktree/remove.ts",
      find: "if (movedAfter !== undefined) { // tether:guard wt-pin-remove-after",
      replace: 'if (movedAfter === "") { // tether:guard wt-pin-remove-after',
    }],
    file: LAND,
    filter: "a commondir written during the clean-up",
  },
  {
    guard: "nothing is removed once the repository moved",
    mutations: [{
      file: "src/worktree/remove.ts",
      find: "if (movedBefore !== undefined) { // tether:guard wt-pin-remove-before",
      replace: 'if (movedBefore === "") { // tether:guard wt-pin-remove-before',
    }],
    file: LAND,
    filter: "a commondir written before the clean-up of a child with nothing to land",
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
    filter: "a commondir written as a kept land anchors its record",
  },
  {
    guard: "the undo writes the parent's bytes from the tree's id, not from a scratch index",
    mutations: [{
      file: "src/worktree/land_undo.ts",
      find: "`--source=${land.before}`, // tether:guard wt-undo-from-tree",
      replace: '"--worktree", // tether:guard wt-undo-from-tree',
    }],
    file: LAND,
    filter: "a scratch index swapped under the undo cannot choose the bytes it writes",
  },
];

Deno.test("mutation: disabling each guard of submodules and failed lands makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
