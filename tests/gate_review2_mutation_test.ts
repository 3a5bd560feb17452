/**
 * Mutation tests for the guards added after the second hostile review of gate: each
 * disables one guard (its `// guard:` line) in a copy of the code and shows that its
 * regression test in tests/gate_review2_test.ts then fails, while the unmutated copy passes.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/gate_review2_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "a fresh, unpredictable private index per run",
    mutations: [{
      file: "src/context/content.ts",
      find: "return `${commonDir}/objects/tmp_tether_index_${crypto.randomUUID()}`;",
      replace: "return `${commonDir}/tether-context-index`;",
    }],
    filter: "F3/F5/F14",
  },
  {
    guard: "regular files are identified by their raw bytes",
    mutations: [{
      file: "src/context/content.ts",
      find: `hashRegularFiles(top, regular, ["--no-filters"],`,
      replace: "hashRegularFiles(top, regular, [],",
    }],
    filter: "F9",
  },
  {
    guard: "against HEAD, the raw id first; the filtered id only proves unchanged",
    mutations: [{
      file: "src/gate/changes.ts",
      find: "return now.raw === leaf.oid || now.filtered === leaf.oid;",
      replace: "return now.filtered === leaf.oid;",
    }],
    filter: "F1",
  },
  {
    guard: "what a path holds now is read directly, never inferred from status",
    mutations: [{
      file: "src/gate/changes.ts",
      find: "const current = now.get(path); // guard: read directly",
      replace: "const head = trees.after.get(path); " +
        "const current = listed.has(path) ? now.get(path) : head " +
        '? { kind: "file" as const, mode: head.mode, raw: head.oid, filtered: head.oid } ' +
        ': { kind: "absent" as const };',
    }],
    filter: "F12",
  },
  {
    guard: "a path git did not add is not read as a file",
    mutations: [{
      file: "src/context/content.ts",
      find: "else if (found.oid === dummy) left.push(path);",
      replace: "",
    }, {
      // Without the guard the FIFO is opened and git waits on it until the hash timeout
      // stops it (the test then fails): a shorter timeout only makes the mutant fail sooner.
      file: "src/context/status.ts",
      find: "export const HASH_TIMEOUT_MS = 120_000;",
      replace: "export const HASH_TIMEOUT_MS = 10_000;",
    }],
    filter: "special file git did not add",
  },
  {
    guard: "history walks ignore grafts and the shallow file",
    mutations: [{
      file: "src/gate/repo.ts",
      find: "env: { ...HISTORY_ENV }, // guard: no grafts or shallow",
      replace: "env: {},",
    }],
    filter: "F6",
  },
  {
    guard: "a commit dated after gate's clock is unverified",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "c.time > now; // guard: future date",
      replace: "false;",
    }],
    filter: "F6",
  },
  {
    guard: "nesting deeper than the limit is a schema violation",
    mutations: [{
      file: "src/gate/json_keys.ts",
      find: "if (++depth > MAX_JSON_DEPTH) return { duplicates: found, tooDeep: true };",
      replace: "++depth;",
    }],
    filter: "F7",
  },
  {
    guard: "a failed context capture is settled at once (no unhandled rejection)",
    mutations: [{
      file: "src/commands/handshake.ts",
      find: "(error) => ({ error }), // guard: capture failure handled",
      replace: '(error) => { Reflect.set(globalThis, "contextFailed", true); throw error; },',
    }, {
      // Deterministic order: without the guard the failure is unhandled only when the context
      // capture fails before the tree capture ends, so the mutant lets the context fail first.
      file: "src/commands/handshake.ts",
      find: "tree = publicAudience ? undefined",
      replace: 'while (v.context && !Reflect.get(globalThis, "contextFailed")) {\n' +
        "      await new Promise((r) => setTimeout(r, 5));\n    }\n    tree = publicAudience ? undefined",
    }],
    filter: "F8",
  },
  {
    guard: "a failed release keeps the verdict",
    mutations: [{
      file: "src/gate/verdict.ts",
      find: "report.warnings = [",
      replace: "throw error; report.warnings = [",
    }],
    filter: "F10",
  },
  {
    guard: "only a file known at spawn is preexisting",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "return spawn.existed.has(path) // guard: known at spawn",
      replace: "return true",
    }],
    filter: "F11",
  },
  {
    guard: "the spawn HEAD is anchored with the snapshot",
    mutations: [{
      file: "src/anchor.ts",
      find: '(second ? `update ${second} ${companion!.oid}\\n` : "") +',
      replace: '"" +',
    }],
    filter: "F13",
  },
  {
    guard: "file evidence inside a submodule is unverified",
    mutations: [{
      file: "src/gate/repo.ts",
      find: 'found.set(path, { kind: "nested", repo: nested }); // guard: submodule evidence',
      replace: "",
    }],
    filter: "gate-1 F7 (evidence)",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("mutation: disabling each gate-2 review guard makes its regression test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every gate-2 review regression", async () => {
  await assertControlPasses(CASES);
});
