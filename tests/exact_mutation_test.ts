/**
 * Mutation tests for the exact-mode guards: each disables one guard (marked `GUARD:` on
 * its line) in a copy of the code and shows that the test guarding it then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const CASES: GuardCase[] = [
  {
    guard: "the live content state is compared with the seed's",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: "const same = sameState(expected.value, observed.value); // GUARD:seed-comparison",
      replace: "const same = true;",
    }],
    file: "tests/exact_test.ts",
    filter: "two different edits",
  },
  {
    guard: "a seed's bytes must hash to its id (a forged object is refused)",
    mutations: [{
      file: "src/seed/commit.ts",
      find: `if (await objectId("commit", stdout, format) !== oid) { // GUARD:seed-hash`,
      replace: "if (false) {",
    }],
    file: "tests/exact_test.ts",
    filter: "forged seed object",
  },
  {
    // Two layers keep replace refs off for a seed read: the seed's own environment and the
    // git runner's default; the guard is gone only when both are.
    guard: "replace refs are off when a seed is read",
    mutations: [{
      file: "src/seed/commit.ts",
      find: "env: NO_REPLACE, // GUARD:seed-no-replace",
      replace: "env: {},",
    }, {
      file: "src/git.ts",
      find: 'if (!options.keepReplaceObjects) env.GIT_NO_REPLACE_OBJECTS = "1";',
      replace: "",
    }],
    file: "tests/exact_test.ts",
    filter: "only through git replace",
  },
  {
    guard: "a seed must be byte-identical to what writeSeed writes",
    mutations: [{
      file: "src/seed/commit.ts",
      find: "|| !canonical) { // GUARD:seed-shape",
      replace: ") {",
    }],
    file: "tests/seed_state_test.ts",
    filter: "shaped like a seed",
  },
  {
    guard: "the seed must record the block's parent_head",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: "if (state.head !== block.parent_head.toLowerCase()) { // GUARD:seed-head",
      replace: "if (false) {",
    }],
    file: "tests/exact_test.ts",
    filter: "records another HEAD",
  },
  {
    guard: "an attached HEAD's branch reflog proves HEAD held still (review 2, f4-linked)",
    mutations: [{
      file: "src/handshake/reader.ts",
      find:
        "return [where.reflog, `${where.commonDir}/logs/${ref}`]; // tether:guard f4-branch-reflog",
      replace: "return [where.reflog];",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "update-ref of this branch",
  },
  {
    guard: "the caller's GIT_CONFIG_* reach no private-index call (behind the capture's refusal)",
    mutations: [{
      file: "src/seed/state.ts",
      find:
        `const NO_CALLER_CONFIG = { GIT_CONFIG_COUNT: "0", GIT_CONFIG_PARAMETERS: "" }; // GUARD:seed-no-caller-config`,
      replace: "const NO_CALLER_CONFIG = {};",
    }, {
      // The capture refuses such configuration first (review verify-2 F1): the seed's own
      // guard is the second layer, shown needed with the first disabled.
      file: "src/handshake/capture.ts",
      find: "if (differs.length === 0) return; // tether:guard env-config-seen",
      replace: "if (differs.length >= 0) return; // tether:guard env-config-seen",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "GIT_CONFIG_PARAMETERS core.excludesFile",
  },
  {
    guard: "each capture has its own fresh private index (no lock, no shared stat data)",
    mutations: [{
      file: "src/seed/state.ts",
      find: "`${objects}/${SEED_INDEX_PREFIX}${crypto.randomUUID()}`; // GUARD:seed-fresh-index",
      replace: "`${objects}/${SEED_INDEX_PREFIX}shared`;",
    }],
    file: "tests/seed_state_test.ts",
    filter: "concurrent seed captures",
  },
  {
    guard: "a tree that already diverged halts with the v1 finding, whatever the seed side met",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: `if (v1.status === "mismatch" && "error" in observed) { // GUARD:v1-halts-first`,
      replace: "if (false) {",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "conflicting merge after the handshake",
  },
  {
    guard: "exact handshake refuses a foreign environment before the seed capture writes",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: "await confirmEnvironment(); // GUARD:probe-before-seed\n",
      replace: "\n",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "refused environment",
  },
  {
    guard: "exact verify refuses a foreign environment before the seed capture writes",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: "await confirmEnvironment(); // GUARD:probe-before-seed-verify",
      replace: "",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "refused environment",
  },
  {
    guard: "the v2 parser trims only the v1 white space (space, tab)",
    mutations: [{
      file: "src/handshake/v2/block.ts",
      find: "const trimAscii = trimBlanks; // GUARD:one-white-space",
      replace: 'const trimAscii = (t: string) => t.replace(/^[ \\t\\v\\f]+|[ \\t\\v\\f]+$/g, "");',
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "one white space",
  },
  {
    guard: "a capture reads the files twice and retries when the reads disagree",
    mutations: [{
      file: "src/seed/state.ts",
      find: "worktree.tree === again.tree; // GUARD:seed-twice",
      replace: "true; // GUARD:seed-twice",
    }],
    file: "tests/seed_state_test.ts",
    filter: "a file that changes between the reads is read again",
  },
  {
    guard: "the block's v1 fields are read inside the seed capture's window, again each round",
    mutations: [{
      file: "src/handshake/v2/exact.ts",
      find: "() => captureLive({ seedSpelling: true }), // GUARD:v1-in-seed-window",
      replace: "((early) => () => early)(captureLive({ seedSpelling: true })),",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "goes into the block's fields and its seed alike",
  },
];

Deno.test("mutation: disabling each exact-mode guard makes its tests fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test the exact-mode mutations break", async () => {
  await assertControlPasses(CASES);
});
