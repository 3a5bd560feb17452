/**
 * Mutation tests for the guards that keep a lying child with the parent's object store from
 * getting `accept`: each disables one guard (its `// guard:` line) in a copy of the code and
 * shows that its test in tests/gate_shared_object_store_test.ts then fails, while the
 * unmutated copy passes.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/gate_shared_object_store_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "replace objects off",
    mutations: [{
      file: "src/git.ts",
      find: `if (!options.keepReplaceObjects) env.GIT_NO_REPLACE_OBJECTS = "1";`,
      replace: "",
    }],
    filter: "a replace ref on the snapshot is ignored",
  },
  {
    guard: "the v1 fingerprint keeps replace refs for bash parity",
    mutations: [{
      file: "src/handshake/capture.ts",
      find: "runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV, keepReplaceObjects: true });",
      replace: "runGit(STATUS_ARGS, { ...at(cwd), env: STATUS_ENV });",
    }],
    filter: "fingerprint keeps bash parity",
  },
  {
    guard: "an object must hash to its name",
    mutations: [{
      file: "src/gate/objects.ts",
      find: "await objectId(type, content, format) === oid;",
      replace: "true;",
    }],
    filter: "a snapshot rewritten in place does not hash to its id",
  },
  {
    guard: "a change is a change of content, not of status letters",
    mutations: [{
      file: "src/gate/changes.ts",
      find: "if (!sameAsLeaf(leaf, current)) changed.push(path); // guard: content only",
      replace: "if (!sameAsLeaf(leaf, current) || listed.has(path)) changed.push(path);",
    }],
    filter: "moving HEAD",
  },
  {
    guard: "a commit reachable from the spawn's HEAD is preexisting",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: `if (fresh.has(ref)) return { kind, ref, status: "verified" };`,
      replace: `if (read.kind) return { kind, ref, status: "verified" };`,
    }],
    filter: "evidence that predates the spawn is preexisting and proves no work",
  },
  {
    guard: "a commit older than the spawn is preexisting",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "(spawn === undefined || known !== undefined || c.time >= spawn.time)",
      replace: "(spawn === undefined || known !== undefined || c.time > 0)",
    }],
    filter: "evidence that predates the spawn is preexisting and proves no work",
  },
  {
    guard: "a file unchanged since spawn is preexisting",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "if (spawn && !spawn.changed.has(path)) {",
      replace: "if (spawn && !spawn) {",
    }],
    filter: "evidence that predates the spawn is preexisting and proves no work",
  },
  {
    guard: "preexisting evidence proves no work",
    mutations: [{
      file: "src/gate/verdict.ts",
      find: `(readOnly && f.status === "preexisting" && f.kind === "file");`,
      replace: `f.status === "preexisting";`,
    }],
    filter: "evidence that predates the spawn is preexisting and proves no work",
  },
  {
    guard: "snapshots are anchored",
    mutations: [{
      file: "src/context/capture.ts",
      find: "await anchorObject( // guard: snapshot anchored",
      replace: "await ((..._a: unknown[]) => Promise.resolve())(",
    }],
    filter: "survives git gc",
  },
  {
    guard: "old anchors expire",
    mutations: [{
      file: "src/anchor.ts",
      find: "a.seconds < oldest && a.ref !== ref",
      replace: "a.seconds < 0 && a.ref !== ref",
    }],
    filter: "older than 14 days",
  },
  {
    guard: "duplicate keys are refused",
    mutations: [{
      file: "src/gate/json_keys.ts",
      find: "if (top.keys.has(value)) found.push({ path: framePath(top), key: value });",
      replace: "",
    }],
    filter: "duplicate JSON keys are a schema violation naming the key",
  },
  {
    guard: "a moved submodule's commit is read (private index)",
    mutations: [{
      file: "src/context/content.ts",
      find: "if (match && want.has(match[3]!)) indexed.set(",
      replace: `if (match && want.has(match[3]!) && match[1] !== "160000") indexed.set(`,
    }],
    filter: "a further commit in a submodule that had already moved at spawn is observed",
  },
];

/**
 * Issue 10: the private index keeps the number of git processes fixed. The mutant hashes in
 * batches of 500 paths instead of one: the test compares the processes for 10 and for 2,000
 * files of each kind, so it fails for any batch below the 4,000 files it hashes, and the
 * smaller the batch (path by path, 1, the worst) the more processes differ. 500 fails it as
 * surely as 1 and spares the mutant some 4,000 git processes.
 */
const BOUNDED: GuardCase = {
  guard: "content read through a private index and hashed in one batch, not path by path",
  mutations: [{
    file: "src/context/content.ts",
    find: "Number.POSITIVE_INFINITY), // guard: raw bytes",
    replace: "500),",
  }],
  file: "tests/context_bounded_test.ts",
  filter: "as many git processes",
};

const CASES: GuardCase[] = [...GUARDS.map((g) => ({ ...g, file: FILE })), BOUNDED];

Deno.test("mutation: disabling each guard of gate against the shared object store makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of gate against the shared object store", async () => {
  await assertControlPasses(CASES);
});
