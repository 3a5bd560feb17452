/**
 * Mutation tests for the guards that keep configuration carried in git's environment from
 * reaching verify's status unseen: each is disabled in a copy of the code, and its test in
 * `tests/verify_git_env_config_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/verify_git_env_config_test.ts";
const CAPTURE = "src/handshake/capture.ts";
const PROBE = "src/handshake/probe.ts";

const CASES: GuardCase[] = [
  {
    guard: "a capture takes status again when the environment changes a setting",
    mutations: [{
      file: CAPTURE,
      find: "if (differs.length === 0) return; // tether:guard env-config-seen",
      replace: "if (differs.length >= 0) return; // tether:guard env-config-seen",
    }],
    file: FILE,
    filter: "hides an untracked file",
  },
  {
    guard: "status without the caller's environment must print the same bytes",
    mutations: [{
      file: CAPTURE,
      find: "if (!sameBytes(plain.stdout, status.stdout)) { // tether:guard env-config-same-status",
      replace: "if (false) { // tether:guard env-config-same-status",
    }],
    file: FILE,
    filter: "hides an untracked file",
  },
  {
    guard: "the configuration git reads is compared with what it reads without the environment",
    mutations: [{
      file: PROBE,
      find: "return sameBytes(mine, clean.subarray(0, cut)); // tether:guard env-config-compare",
      replace: "return true; // tether:guard env-config-compare",
    }],
    file: FILE,
    filter: "empty GIT_CONFIG_GLOBAL",
  },
  {
    guard: "the capture's status reads no commit-graph",
    mutations: [{
      file: CAPTURE,
      find: '"core.commitGraph=false",',
      replace: '"core.commitGraph=true",',
    }],
    file: FILE,
    filter: "a forged commit-graph that gives HEAD the staged tree is never read",
  },
  {
    guard: "the capture's status looks for replace refs where git does by default",
    mutations: [{
      file: CAPTURE,
      find: 'GIT_REPLACE_REF_BASE: "refs/replace/",',
      replace: "",
    }],
    file: FILE,
    filter: "an empty GIT_REPLACE_REF_BASE",
  },
  {
    guard: "variables that change what status reads are compared with the clean probe's",
    mutations: [{
      file: PROBE,
      find:
        "if (where.traced[name] !== where.cleanTraced?.[name]) out.push(name); // tether:guard env-status-variables",
      replace: "// tether:guard env-status-variables",
    }],
    file: FILE,
    filter: "GIT_NO_REPLACE_OBJECTS",
  },
  {
    guard: "a trace that named nothing is taken as an environment unknown",
    mutations: [{
      file: PROBE,
      find:
        `if (where.traced.GIT_EXEC_PATH === undefined) return ["(git's trace named nothing)"]; // tether:guard env-config-untraced`,
      replace: "// tether:guard env-config-untraced",
    }],
    file: FILE,
    filter: "names none of its environment",
  },
];

Deno.test("mutation: disabling each guard against configuration in git's environment makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test those mutations break", async () => {
  await assertControlPasses(CASES);
});
