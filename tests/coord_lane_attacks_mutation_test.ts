/**
 * Mutation tests for the guards against a hostile lane's attacks on coord: each disables one
 * guard (the line carrying its `GUARD:` marker) in a copy of the code and shows that its
 * test in tests/coord_lane_attacks_test.ts then fails, while the unmutated copy passes.
 *
 * @module
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/coord_lane_attacks_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "a creation entry must agree with its commit's first parent",
    mutations: [{
      file: "src/coord/ownership.ts",
      find: "return entry.parents[0] === before.commit; // GUARD:first-parent",
      replace: "return true;",
    }],
    filter: "does not agree with its commit",
  },
  {
    guard: "only git's creation messages own (the list of moves is no defence)",
    mutations: [{
      file: "src/coord/ownership.ts",
      find: "return undefined; // GUARD:only-creation-messages",
      replace: 'return "first-parent";',
    }],
    filter: "up-to-date rebase",
  },
  {
    guard: "git's '<id> missing' is no object type",
    mutations: [{
      file: "src/coord/history.ts",
      find:
        "const match = /^([0-9a-f]+) (commit|tree|blob|tag)$/.exec(line); // GUARD:missing-is-no-type",
      replace: "const match = /^([0-9a-f]+) ([a-z]+)$/.exec(line);",
    }],
    filter: "GONE when the path's object is gone",
  },
  {
    guard: "a gitlink's id is never looked up",
    mutations: [{
      file: "src/coord/artifact.ts",
      find: "} else if (!isLocalObject(entry)) { // GUARD:gitlink-not-looked-up",
      replace: "} else if (false) {",
    }],
    filter: "submodule entry",
  },
  {
    guard: "every body line is framed",
    mutations: [{
      file: "src/coord/terminal.ts",
      find: 'return shown.map((safe) => `${BODY_PREFIX}${safe}\\n`).join(""); // GUARD:frame-body',
      replace: 'return shown.map((safe) => `${safe}\\n`).join("");',
    }],
    filter: "a body cannot pass for a forwarded message from Primary",
  },
  {
    guard: "control characters in a body are escaped",
    mutations: [{
      file: "src/coord/terminal.ts",
      find:
        '} else if (c === "\\t" || c === "\\n" || unsafe(c.codePointAt(0) ?? 0)) { // GUARD:escape-body',
      replace: '} else if (c === "\\n") {',
    }],
    filter: "a body cannot pass for a forwarded message from Primary",
  },
  {
    guard: "a lane's .git must name its administrative directory",
    mutations: [{
      file: "src/coord/identity.ts",
      find: "if (claims.get(path) !== adminDir) return false; // GUARD:worktree-names-admin",
      replace: "",
    }],
    filter: "names another lane's administrative directory",
  },
  {
    guard: "no other lane's .git may name the same administrative directory",
    mutations: [{
      file: "src/coord/identity.ts",
      find: "if (other !== path && dir === adminDir) return false; // GUARD:admin-named-once",
      replace: "",
    }],
    filter: "git worktree repair",
  },
  {
    guard: "a special file at a store slot is never opened",
    mutations: [{
      file: "src/coord/regular_file.ts",
      find:
        "if (!info.isFile) return { ok: false, reason: `is ${kindOf(info)}` }; // GUARD:special-file",
      replace: "",
    }],
    filter: "at a message or ack slot is a corrupt record",
  },
  {
    guard: "arguments that are not UTF-8 are refused",
    mutations: [{
      file: "src/coord/cli.ts",
      find: "  checkArgumentsText(args);\n",
      replace: "",
    }],
    filter: "a --subject or --path that is not UTF-8 is refused like the body",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("mutation: disabling each guard against a lane's attacks makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of a lane's attacks", async () => {
  await assertControlPasses(CASES);
});
