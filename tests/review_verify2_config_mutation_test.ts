/**
 * Mutation test for the guards of review verify-2's finding F1 (configuration carried in
 * git's environment): each is disabled in a copy of the code, and its test in
 * `tests/review_verify2_config_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/review_verify2_config_test.ts";
const CAPTURE = "src/handshake/capture.ts";

const CASES: GuardCase[] = [
  {
    guard: "a capture looks for configuration in the environment",
    mutations: [{
      file: CAPTURE,
      find: "if (set.length === 0) return; // tether:guard env-config-seen",
      replace: "if (set.length >= 0) return; // tether:guard env-config-seen",
    }],
    file: FILE,
    filter: "hides an untracked file",
  },
  {
    guard: "status without the caller's environment must print the same bytes",
    mutations: [{
      file: CAPTURE,
      find: "const same = plain.code === 0 && sameBytes(plain.stdout, status.stdout);",
      replace: "const same = plain.code === 0 || sameBytes(plain.stdout, status.stdout);",
    }],
    file: FILE,
    filter: "hides an untracked file",
  },
  {
    guard: "only tether's own options in GIT_CONFIG_PARAMETERS are set aside",
    mutations: [{
      file: CAPTURE,
      find:
        "if (traced.GIT_CONFIG_PARAMETERS === where.ownParameters) { // tether:guard env-config-own-parameters",
      replace: "if (true) { // tether:guard env-config-own-parameters",
    }],
    file: FILE,
    filter: "hides an untracked file",
  },
  {
    guard: "a git whose trace named nothing is taken as configuration unknown",
    mutations: [{
      file: CAPTURE,
      find: "const set = ran ? configInEnvironment(traced) :",
      replace: "const set = true ? configInEnvironment(traced) :",
    }],
    file: FILE,
    filter: "names none of its environment",
  },
];

Deno.test("mutation: disabling each guard of review verify-2 F1 makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the test those mutations break", async () => {
  await assertControlPasses(CASES);
});
