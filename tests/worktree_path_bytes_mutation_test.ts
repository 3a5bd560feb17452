/**
 * Mutation tests for the guards that handle a path name by its exact bytes: each disables
 * one guard (marked `// tether:guard …` on its line) in a copy of the code and shows that its
 * test in `tests/worktree_path_bytes_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_path_bytes_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "the ignored listing at land is decoded exactly",
    mutations: [{
      file: "src/worktree/land_checks.ts",
      find: "for (const entry of decodePaths(listed.stdout)) { // tether:guard",
      replace:
        'for (const entry of new TextDecoder().decode(listed.stdout).split("\\0")) { // tether:guard',
    }],
    file: FILE,
    filter: "replaces a non-UTF-8 directory",
  },
  {
    guard: "git status is decoded exactly",
    mutations: [{
      file: "src/context/status.ts",
      find: "return parsePorcelainV2Z(decodeRecords(status.stdout)); // tether:guard",
      replace: "return parsePorcelainV2Z(new TextDecoder().decode(status.stdout)); // tether:guard",
    }],
    file: FILE,
    filter: "observes an undisclosed edit",
  },
  {
    guard: "a name with a byte that is not UTF-8 never fits argv",
    mutations: [{
      file: "src/paths.ts",
      find: "return !/\\p{Cs}/u.test(path); // tether:guard",
      replace: "return true; // tether:guard",
    }],
    file: FILE,
    filter: "confirms a new non-UTF-8 file",
  },
  {
    guard: "file evidence argv cannot carry is read directly",
    mutations: [{
      file: "src/gate/repo.ts",
      find: "if (!fitsArgv(path)) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "confirms a new non-UTF-8 file",
  },
  {
    guard: "file evidence pathspecs keep names argv cannot carry out (the index listed whole)",
    mutations: [{
      file: "src/gate/repo.ts",
      find: "const arguable = specs.filter(fitsArgv); // tether:guard",
      replace: "const arguable = specs.filter(() => true); // tether:guard",
    }],
    file: FILE,
    filter: "inside a submodule whose name",
  },
  {
    guard: "a path argv cannot carry is typed with its name on stdin",
    mutations: [{
      file: "src/context/lstat.ts",
      find:
        "const apart = await kindsOnStdin(top, all.filter((p) => !fitsArgv(p))); // tether:guard",
      replace: "const apart = await kindsOnStdin(top, []); // tether:guard",
    }],
    file: FILE,
    filter: "replaced by a FIFO",
  },
  {
    guard: "typed on stdin, only a walked file is regular (a FIFO never is)",
    mutations: [{
      file: "src/context/lstat.ts",
      find: "listed.has(path) // tether:guard",
      replace: "true // tether:guard",
    }],
    file: FILE,
    filter: "replaced by a FIFO",
  },
  {
    guard: "hash-object reads a path with a control character C-quoted on stdin",
    mutations: [{
      file: "src/context/lstat.ts",
      find: "return plain ? path : cQuotePath(path); // tether:guard",
      replace: "return path; // tether:guard",
    }],
    file: FILE,
    filter: "notes",
  },
  {
    guard: "the capture's tracked paths are decoded exactly",
    mutations: [{
      file: "src/seed/state.ts",
      find: "for (const record of decodePaths(entries)) { // tether:guard",
      replace:
        'for (const record of new TextDecoder().decode(entries).split("\\0")) { // tether:guard',
    }],
    file: FILE,
    filter: "spawns, and a child's undisclosed edit",
  },
  {
    guard: "the capture looks a tracked name argv cannot carry up by a glob",
    mutations: [{
      file: "src/context/raw_tree.ts",
      find: "fitsArgv(p) ? `:(literal)${p}` : globPathspec(p)); // tether:guard",
      replace: "`:(literal)${p}`); // tether:guard",
    }],
    file: FILE,
    filter: "spawns, and a child's undisclosed edit",
  },
  {
    guard: "a glob pathspec carries no byte that is not UTF-8",
    mutations: [{
      file: "src/paths.ts",
      find: '.replace(/[\\udc80-\\udcff]/g, "?") // tether:guard',
      replace: ".replace(/[\\udc80-\\udcff]/g, (c) => c) // tether:guard",
    }],
    file: FILE,
    filter: "spawns, and a child's undisclosed edit",
  },
  {
    guard: "a regular file the capture cannot hash fails it",
    mutations: [{
      file: "src/context/raw_tree.ts",
      find:
        'throw new GitError("failed", `cannot read ${JSON.stringify(path)}: git could not hash it`); // tether:guard',
      replace: "info.push(`0 ${dummy}\\t${path}\\0`); // tether:guard",
    }],
    file: FILE,
    filter: "cannot hash fails it",
  },
  {
    guard: "gate --since refuses a bad claim as a reason",
    mutations: [{
      file: "src/gate/claims.ts",
      find: "const badClaims = claimChecks.filter(([, p]) => p instanceof Error); // tether:guard",
      replace: "const badClaims = claimChecks.filter(() => false); // tether:guard",
    }],
    file: FILE,
    filter: "refuses each claim",
  },
  {
    guard: "a claimed or cited path is one name exactly",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "if (bytes !== path) { // tether:guard",
      replace: "if (false) { // tether:guard",
    }],
    file: FILE,
    filter: "refuses each claim",
  },
];

Deno.test("mutation: disabling each path-bytes guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
