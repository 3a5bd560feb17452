/**
 * Mutation tests for the guards that keep what is ignored from being decided by settings a
 * child can write (and the check that an ignored file is in the way from being a check
 * before use): each disables one guard (marked `// tether:guard …` on its line) in a copy of
 * the code and shows that its test in `tests/worktree_user_ignore_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_user_ignore_test.ts";

const CASES: GuardCase[] = [
  {
    // The call runs in the repository (as git reads it there):
    // only the scope keeps the repository's own value out.
    guard: "only the global and system configuration name the user's ignore file",
    mutations: [{
      file: "src/seed/excludes.ts",
      find:
        'if (name === "core.excludesfile" && TRUSTED_SCOPES.has(scope)) value = text; // tether:guard excl-trusted-scope',
      replace: 'if (name === "core.excludesfile") value = text; // tether:guard excl-trusted-scope',
    }],
    file: FILE,
    filter: "spawn: core.excludesFile=/dev/null in the shared config",
  },
  {
    guard: "the user's ignore file is asked where git asks it: in the repository",
    mutations: [{
      file: "src/seed/excludes.ts",
      find:
        '{ cwd: top, allowFailure: true, traceEnv: ["XDG_CONFIG_HOME", "HOME"] }, // tether:guard excl-in-repo',
      replace:
        '{ cwd: "/", allowFailure: true, traceEnv: ["XDG_CONFIG_HOME", "HOME"] }, // tether:guard excl-in-repo',
    }],
    file: FILE,
    filter: "includeIf",
  },
  {
    guard: "the lookup counts only when git read the repository's own configuration",
    mutations: [{
      file: "src/seed/excludes.ts",
      find:
        'if (name === REPOSITORY_KEY && scope === "local") repository = true; // tether:guard excl-repository-read',
      replace: "repository = true; // tether:guard excl-repository-read",
    }],
    file: FILE,
    filter: "a lookup in which git read no repository configuration",
  },
  {
    guard: "the default ignore file is under $XDG_CONFIG_HOME when it is set",
    mutations: [{
      file: "src/seed/excludes.ts",
      find:
        "if (env.XDG_CONFIG_HOME) return `${env.XDG_CONFIG_HOME}/git/ignore`; // tether:guard excl-xdg",
      replace:
        'if (env.XDG_CONFIG_HOME === "\\0") return `${env.XDG_CONFIG_HOME}/git/ignore`; // tether:guard excl-xdg',
    }],
    file: FILE,
    filter: "spawn: a !.env.local line in <common>/info/exclude",
  },
  {
    guard: "a capture leaves out, before hashing, what the user's ignore file ignores",
    mutations: [{
      file: "src/context/raw_tree.ts",
      find: "const paths = all.filter((p) => !dropped.has(p)); // tether:guard excl-drop",
      replace: "const paths = all; // tether:guard excl-drop",
    }],
    file: FILE,
    filter: "core.excludesFile=/dev/null in the shared config",
  },
  {
    guard: "a spawn whose capture left a path out is refused in one line",
    mutations: [{
      file: "src/worktree/spawn_capture.ts",
      find: "await refuseLeftOut(left, top); // tether:guard wt-spawn-left-out",
      replace: "// tether:guard wt-spawn-left-out",
    }],
    file: FILE,
    filter: "spawn: a !.env.local line in <common>/info/exclude",
  },
  {
    guard: "the harness form whose capture left a path out is refused",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "await refuseLeftOut(left, parent.top); // tether:guard wt-seed-left-out",
      replace: "// tether:guard wt-seed-left-out",
    }],
    file: FILE,
    filter: "the harness form is refused the same way",
  },
  {
    guard: "the land's check of what is in the way reads no ignore rule",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: '"--directory", // tether:guard wt-land-ignored-no-rules',
      replace:
        '"--directory", "--ignored", "--exclude-standard", // tether:guard wt-land-ignored-no-rules',
    }],
    file: FILE,
    filter: "a ! line on for the land's check and off for its checkout",
  },
  {
    guard: "the land's check of what is in the way lists against the parent's capture",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find:
        'const env = { GIT_INDEX_FILE: index, GIT_NO_REPLACE_OBJECTS: "1" }; // tether:guard wt-land-ignored-capture',
      replace:
        'const env = { GIT_NO_REPLACE_OBJECTS: "1" }; // tether:guard wt-land-ignored-capture',
    }],
    file: FILE,
    filter: "a correct spawn carries untracked files that are not ignored",
  },
];

Deno.test("mutation: disabling each guard of the user's ignore file makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
