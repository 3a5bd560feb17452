/**
 * Mutation tests for the guards of whose commit is evidence and of where a spawn's `..`
 * leads: each disables one guard (marked `// tether:guard …` on its line) in a copy of the
 * code and shows that its test in `tests/worktree_evidence_spawn_path_test.ts` then fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/worktree_evidence_spawn_path_test.ts";
const OWN = "src/worktree/own_commits.ts";

const CASES: GuardCase[] = [
  {
    guard: "a commit on any other ref is not the child's own",
    mutations: [{
      file: OWN,
      find: "if (!mine.has(name)) tips.push(",
      replace: "if (false) tips.push(",
    }],
    file: FILE,
    filter: "a commit of another branch made before the spawn is not the child's evidence",
  },
  {
    guard: "a commit on another worktree's HEAD is not the child's own",
    mutations: [{
      file: OWN,
      find: "if (head !== undefined && branch !== branchRef) heads.push(head);",
      replace: "if (false) heads.push(head);",
    }],
    file: FILE,
    filter: "a commit only on another worktree's detached HEAD is not the child's evidence",
  },
  {
    guard: "only the child's first-parent line is its own",
    mutations: [{
      file: OWN,
      find: `"rev-list", "--first-parent", "--parents"`,
      replace: `"rev-list", "--parents"`,
    }],
    file: FILE,
    filter: "a landed sibling's commit, on no ref any more, merged as a second parent",
  },
  {
    guard: "an own commit counts only when its change stays in the child's changed paths",
    mutations: [{
      file: OWN,
      find: "paths.every((path) => changed.has(path) || !differs.has(path)); // tether:guard",
      replace: "paths.every(() => true); // tether:guard",
    }],
    file: FILE,
    filter: "a child's own commit that also added a file it removed later",
  },
  {
    guard: "an own commit counts only when it changes one of the child's paths",
    mutations: [{
      file: OWN,
      find: "paths.some((path) => changed.has(path)) && // tether:guard",
      replace: "true && // tether:guard",
    }],
    file: FILE,
    filter: "a child's commit that changes none of its own paths",
  },
  {
    guard: "spawn goes up from the real path of what precedes a .., never lexically",
    mutations: [{
      file: "src/worktree/spawn_dirs.ts",
      find:
        "spelled = rest.length > 0 ? join(real, ...rest.slice(0, -1)) : dirname(real); // tether:guard",
      replace: "spelled = dirname(spelled); // tether:guard",
    }],
    file: FILE,
    filter: "with .. after a link into the parent's tree is refused up front",
  },
  {
    guard: "spawn gives git the real path it checked and created",
    mutations: [{
      file: "src/worktree/spawn.ts",
      find: "const targets: readonly string[] = paths; // tether:guard",
      replace: "const targets: readonly string[] = dirs; // tether:guard",
    }],
    file: FILE,
    filter: "with .. after a directory that does not exist yet",
  },
];

Deno.test("mutation: disabling each evidence and spawn-path guard makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test those mutations break", async () => {
  await assertControlPasses(CASES);
});
