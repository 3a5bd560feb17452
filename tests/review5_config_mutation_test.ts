/**
 * Mutation tests for the guards of review worktree-5 (what the shared `.git` makes the land
 * and spawn do): each disables one guard (marked `// tether:guard …` on its line) in a copy
 * of the code and shows that its test in `tests/review5_config_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review5_config_test.ts";

/** The merged tree's own .gitattributes not asked before the checkout. */
const MERGED_OFF = {
  file: "src/worktree/land_refusals.ts",
  find:
    "const inMerged = await attributesAt(parent.top, paths, mergedIndex, true); // tether:guard",
  replace: "const inMerged = [mergedIndex].slice(1) as never[]; // tether:guard",
};

const CASES: GuardCase[] = [
  {
    guard: "no git call runs a hook",
    mutations: [{
      file: "src/git.ts",
      find: '"core.hooksPath=/dev/null", // tether:guard no-hooks',
      replace: '"core.fsmonitor=false", // tether:guard no-hooks',
    }],
    file: FILE,
    filter: "finding 4",
  },
  {
    guard: "the land's checkout is never sparse",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: '"core.sparseCheckout=false", // tether:guard',
      replace: '"core.sparseCheckoutCone=false", // tether:guard',
    }],
    file: FILE,
    filter: "finding 2",
  },
  {
    guard: "a merge attribute naming a driver (union included) is refused",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find:
        'if (a.value !== "set" && merging.has(a.path)) refuse(a, true); // tether:guard wt-attr-merge',
      replace: "// tether:guard wt-attr-merge",
    }],
    file: FILE,
    filter: "finding 1 (b)",
  },
  {
    guard: "the landing paths' attributes are asked before the merge runs",
    mutations: [{
      file: "src/worktree/land_read.ts",
      find:
        "const found = await attributesAt(parentTop, child.landing, scratch, false); // tether:guard",
      replace: "const found = [scratch].slice(1) as never[]; // tether:guard",
    }],
    file: FILE,
    filter: "finding 1 (a)",
  },
  {
    guard: "merge.default in the config is refused",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: ": [`merge.default=${drivers.mergeDefault} (config)`]), // tether:guard",
      replace: ": []), // tether:guard",
    }],
    file: FILE,
    filter: "finding 1 (c)",
  },
  {
    guard: "every filter the config names is pinned to none in the land",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "[...CHECKOUT_CONFIG, ...filterPins(drivers.filters)], // tether:guard",
      replace: "[...CHECKOUT_CONFIG], // tether:guard",
    }],
    file: FILE,
    filter: "finding 3 (a)",
  },
  {
    guard: "every filter the config names is pinned to none in a spawn's checkout",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "pinned(await readDrivers(dir), { cwd: dir }); // tether:guard",
      replace: "pinned({ filters: [], unpinnable: [] }, { cwd: dir }); // tether:guard",
    }],
    file: FILE,
    filter: "finding 3 (b)",
  },
  {
    guard: "eol=crlf is refused where it would rewrite the landed bytes",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "refuse(a); // tether:guard wt-attr-eol",
      replace: "// tether:guard wt-attr-eol",
    }],
    file: FILE,
    filter: "finding 3 (c)",
  },
  {
    guard: "ident is refused",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "refuse(a); // tether:guard wt-attr-ident",
      replace: "// tether:guard wt-attr-ident",
    }],
    file: FILE,
    filter: "finding 3 (f)",
  },
  {
    guard: "the merged tree's own .gitattributes are asked before anything is written",
    mutations: [MERGED_OFF],
    file: FILE,
    filter: "finding 3 (d)",
  },
  {
    guard: "attributes that appear during the land are caught and said after the checkout",
    mutations: [MERGED_OFF, {
      file: "src/worktree/land_write.ts",
      find: "if (after.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "finding 3 (d)",
  },
];

Deno.test("mutation: disabling each guard of review worktree-5 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
