/**
 * Mutation tests for the guards of exact mode's private indexes (src/seed/cached.ts): each
 * is disabled in a copy of the code, and a test in `tests/exact_cache_test.ts` (or the
 * torn-index test in verify_hostile_state_test.ts) then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/exact_cache_test.ts";
const CACHED = "src/seed/cached.ts";

const CASES: GuardCase[] = [
  {
    guard: "the working tree is looked at again and must not have changed",
    mutations: [{
      file: CACHED,
      find: "sameBytes(entries, entriesAfter) && !moved; // tether:guard cache-twice",
      replace: "sameBytes(entries, entriesAfter);",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "torn index A-B-A",
  },
  {
    guard: "the look again is skipped only when the record changed nothing",
    mutations: [{
      file: CACHED,
      find: "return { spec, unchanged }; // tether:guard cache-unchanged",
      replace: "return { spec, unchanged: true };",
    }],
    file: "tests/verify_hostile_state_test.ts",
    filter: "torn index A-B-A",
  },
  {
    guard: "untracked entries the ignore rules now ignore leave the private index",
    mutations: [{
      file: CACHED,
      find: "const drop = untracked([...ignored, ...userIgnored]); // tether:guard cache-drop",
      replace: "const drop: string[] = [];",
    }],
    file: FILE,
    filter: "leaves out what the ignore rules ignore",
  },
  {
    guard: "tracked paths the ignore rules hide are carried",
    mutations: [{
      file: CACHED,
      find: "const carried = hidden; // tether:guard cache-carry",
      replace: "const carried: string[] = [];",
    }],
    file: FILE,
    filter: "leaves out what the ignore rules ignore",
  },
  {
    guard: "what the user's ignore file ignores is left out before anything is read",
    mutations: [{
      file: CACHED,
      find:
        'const spec = nul([":/", ...left.map((p) => `:(top,literal,exclude)${p}`)]); // tether:guard cache-left',
      replace: 'const spec = nul([":/"]);',
    }],
    file: FILE,
    filter: "user's ignore file",
  },
  {
    guard: "an attributes file taken in sends the capture the full way",
    mutations: [{
      file: CACHED,
      find: "if (attributes.stdout.length > 0) { // tether:guard cache-attributes",
      replace: "if (false) {",
    }],
    file: FILE,
    filter: "untracked .gitattributes",
  },
  {
    guard: "info/attributes sends the capture the full way",
    mutations: [{
      file: CACHED,
      find:
        "if (converting !== undefined) return await full(); // tether:guard cache-info-attributes",
      replace: "",
    }],
    file: FILE,
    filter: "untracked .gitattributes",
  },
  {
    guard: "a submodule in the index sends the capture the full way",
    mutations: [{
      file: CACHED,
      find: "if (facts.gitlink) return await full(); // tether:guard cache-gitlinks",
      replace: "",
    }],
    file: FILE,
    filter: "nested repository",
  },
  {
    guard: "an unmerged index is refused by name before the cached capture writes anything",
    mutations: [{
      file: CACHED,
      find:
        'if (facts.unmerged) throw new GitError("failed", unmergedMessage(unmergedPaths(entries))); // tether:guard cache-unmerged',
      replace: "",
    }],
    file: "tests/exact_edges_test.ts",
    filter: "handshake --exact during a conflicted merge",
  },
  {
    guard: "the index's tree is HEAD's only when nothing is staged",
    mutations: [{
      file: CACHED,
      find:
        "if (diff.code === 0 && diff.stdout.length === 0 && headTree.code === 0) { // tether:guard cache-head-tree",
      replace: "if (headTree.code === 0) {",
    }],
    file: FILE,
    filter: "capture after capture",
  },
  {
    guard: "the private copy of the index is brought in line with it",
    mutations: [{
      file: CACHED,
      find: "if (!sameBytes(copy.stdout, entries)) { // tether:guard cache-staged",
      replace: "if (false) {",
    }],
    file: FILE,
    filter: "capture after capture",
  },
];

Deno.test("mutation: disabling each guard of exact mode's private indexes makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the tests those mutations break", async () => {
  await assertControlPasses(CASES);
});
