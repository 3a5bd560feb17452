/**
 * Mutation tests for the guards of the land record taken back as `--landed ID`: each
 * disables one guard (marked `// tether:guard wt-…` on its line) in a copy of the code and
 * shows that its test in `tests/land_record_integrity_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/land_record_integrity_test.ts";

/** The land's commits without their random token: ids a child can compute in advance. */
const PREDICTABLE = {
  file: "src/worktree/merge.ts",
  find: "const message = mergeMessage(crypto.randomUUID()); // tether:guard",
  replace: 'const message = "tether land"; // tether:guard',
};

/** Parentage lookups that honour grafts and the shallow file again. */
const GRAFTS_ON = {
  file: "src/gate/objects.ts",
  find: "env: { ...options.env, ...HISTORY_ENV }, // tether:guard",
  replace: "env: { ...options.env }, // tether:guard",
};

/** A kept land's record with a known token: an id a child can compute in advance. */
const RECORD_PREDICTABLE = {
  file: "src/worktree/record.ts",
  find: 'const token = crypto.randomUUID().replaceAll("-", ""); // tether:guard',
  replace: 'const token = "0".repeat(32); // tether:guard',
};

const CASES: GuardCase[] = [
  {
    guard: "a land record's id is unpredictable (a planted object under it is never kept)",
    mutations: [RECORD_PREDICTABLE],
    file: FILE,
    filter: "an object planted where a predictable record would go",
  },
  {
    guard: "a kept land reads its record back before it lands",
    mutations: [RECORD_PREDICTABLE, {
      file: "src/worktree/record.ts",
      find: 'if (back?.kind !== "ok" || !sameBytes(back.content, bytes)) { // tether:guard',
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "an object planted where a predictable record would go",
  },
  {
    guard: "the land's commit ids are unpredictable (a planted object under one is never read)",
    mutations: [PREDICTABLE],
    file: FILE,
    filter: "an object planted under the predicted id",
  },
  {
    guard: "the land's commits are read back after the merge",
    mutations: [PREDICTABLE, {
      file: "src/worktree/merge.ts",
      find: 'if (back?.kind !== "ok" || !same(back.content, written.bytes)) { // tether:guard',
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "an object planted under the predicted id",
  },
  {
    guard: "the land's merge is blind to grafts (with --landed)",
    mutations: [PREDICTABLE, GRAFTS_ON],
    file: FILE,
    filter: "a graft file in the shared .git does not choose the land's merge base",
  },
  {
    guard: "the land's merge is blind to grafts (a first land)",
    mutations: [PREDICTABLE, GRAFTS_ON],
    file: FILE,
    filter: "a graft file does not choose a first land's merge base",
  },
  {
    guard: "a path in a land line is escaped as every human line is (C1 controls included)",
    mutations: [{
      file: "src/show.ts",
      find: "return blockValue(path); // tether:guard",
      replace: "return path; // tether:guard",
    }],
    file: FILE,
    filter: "a file name holding NEL",
  },
  {
    guard: "with --landed, the round is what the child changed since the record",
    mutations: [{
      file: "src/worktree/child_work.ts",
      find: "const round = sinceRecord ?? changed; // tether:guard",
      replace: "const round = changed; // tether:guard",
    }],
    file: FILE,
    filter: "an undo of a landed line and a rename of a landed file",
  },
  {
    guard: "with --landed, claims are judged against the paths changed since the record",
    mutations: [{
      file: "src/worktree/gate.ts",
      find: "claimed.filter((p) => !landedBefore.has(p)), // tether:guard",
      replace: "claimed, // tether:guard",
    }],
    file: FILE,
    filter: "a land whose own changes since the record the parent already has says so",
  },
  {
    guard: "an idle round re-sending its claims is rejected as no new change",
    mutations: [{
      file: "src/worktree/gate.ts",
      find:
        "if (record !== undefined && child.round.length === 0 && claimed.length > 0) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "an idle child re-sending its first report is rejected",
  },
  {
    guard: "the land's merge is blind to the shallow file",
    mutations: [PREDICTABLE, GRAFTS_ON],
    file: FILE,
    filter: "a shallow file naming the land's commit does not make an accepted land fail",
  },
];

Deno.test("mutation: disabling each guard of the land record makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
