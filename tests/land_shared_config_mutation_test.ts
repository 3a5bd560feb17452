/**
 * Mutation tests for the guards that keep what the shared `.git` holds from deciding the land
 * and a spawn: each disables one guard (marked `// tether:guard …` on its line) in a copy of
 * the code and shows that its test in `tests/land_shared_config_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/land_shared_config_test.ts";

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
    filter: "no hook from the shared .git runs in the land's clean-up or the next spawn",
  },
  {
    guard: "the land's checkout is never sparse",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: '"core.sparseCheckout=false", // tether:guard',
      replace: '"core.sparseCheckoutCone=false", // tether:guard',
    }],
    file: FILE,
    filter: "sparse checkout in the shared config deletes none of the parent's files",
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
    filter: "merge=union from info/attributes alone never turns a conflict into a land",
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
    filter: "a merge driver from the shared .git never runs",
  },
  {
    guard: "merge.default in the config is refused",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: ": [`merge.default=${drivers.mergeDefault} (config)`]), // tether:guard",
      replace: ": []), // tether:guard",
    }],
    file: FILE,
    filter: "a merge.default driver from the shared config never runs",
  },
  {
    guard: "every filter the config names is pinned to none in the land",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "[...CHECKOUT_CONFIG, ...filterPins(drivers.filters)], // tether:guard",
      replace: "[...CHECKOUT_CONFIG], // tether:guard",
    }],
    file: FILE,
    filter: "a filter from the shared .git never runs in the land",
  },
  {
    guard: "every filter the config names is pinned to none in a spawn's checkout",
    mutations: [{
      file: "src/worktree/spawn_fill.ts",
      find: "pinned(await readDrivers(dir), { cwd: dir }); // tether:guard",
      replace: "pinned({ filters: [], unpinnable: [] }, { cwd: dir }); // tether:guard",
    }],
    file: FILE,
    filter: "a smudge filter from the shared .git never runs in a spawn's checkout",
  },
  {
    guard: "eol=crlf is refused where it would rewrite the landed bytes",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "refuse(a); // tether:guard wt-attr-eol",
      replace: "// tether:guard wt-attr-eol",
    }],
    file: FILE,
    filter: "eol=crlf in the shared info/attributes is refused",
  },
  {
    guard: "ident is refused",
    mutations: [{
      file: "src/worktree/land_config.ts",
      find: "refuse(a); // tether:guard wt-attr-ident",
      replace: "// tether:guard wt-attr-ident",
    }],
    file: FILE,
    filter: "ident in the shared info/attributes is refused",
  },
  {
    guard: "the merged tree's own .gitattributes are asked before anything is written",
    mutations: [MERGED_OFF],
    file: FILE,
    filter: "eol=crlf in the child's own .gitattributes",
  },
  {
    guard: "attributes that appear during the land are caught and said after the checkout",
    mutations: [MERGED_OFF, {
      file: "src/worktree/land_write.ts",
      find: "if (after.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "eol=crlf in the child's own .gitattributes",
  },
];

Deno.test("mutation: disabling each guard against the shared .git's settings makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
