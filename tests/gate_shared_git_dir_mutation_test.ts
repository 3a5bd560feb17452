/**
 * Mutation tests for the guards that keep a child with the same git directory from making an
 * untouched file read as changed or stopping gate: each disables one guard (its `// guard:`
 * line) in a copy of the code and shows that its test in tests/gate_shared_git_dir_test.ts
 * then fails, while the unmutated copy passes.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const FILE = "tests/gate_shared_git_dir_test.ts";

const GUARDS: Omit<GuardCase, "file">[] = [
  {
    guard: "a fresh, unpredictable private index per run",
    mutations: [{
      file: "src/context/lstat.ts",
      find: "return `${commonDir}/objects/tmp_tether_index_${crypto.randomUUID()}`;",
      replace: "return `${commonDir}/tether-context-index`;",
    }],
    filter: "the private index is fresh and unpredictable",
  },
  {
    guard: "regular files are identified by their raw bytes",
    mutations: [{
      file: "src/context/content.ts",
      find: `hashRegularFiles(top, regular, ["--no-filters"],`,
      replace: "hashRegularFiles(top, regular, [],",
    }],
    filter: "attributes the child adds in the git directory change no content",
  },
  {
    guard: "against HEAD, the raw id first; the filtered id only proves unchanged",
    mutations: [{
      file: "src/gate/changes.ts",
      find: "return now.raw === leaf.oid || now.filtered === leaf.oid;",
      replace: "return now.filtered === leaf.oid;",
    }],
    filter: "a CRLF file under text=auto moved between index and HEAD is no change",
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
    filter: "hiding a path from status",
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
      file: "src/context/lstat.ts",
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
    filter: "grafts and a shallow file do not cut the walk",
  },
  {
    guard: "a commit dated after gate's clock is unverified",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "c.time > now; // guard: future date",
      replace: "false;",
    }],
    filter: "grafts and a shallow file do not cut the walk",
  },
  {
    guard: "nesting deeper than the limit is a schema violation",
    mutations: [{
      file: "src/gate/json_keys.ts",
      find: "if (++depth > MAX_JSON_DEPTH) return { duplicates: found, tooDeep: true };",
      replace: "++depth;",
    }],
    filter: "deep nesting is one schema violation",
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
    filter: "a ref in the anchor namespace is one error line",
  },
  {
    guard: "a failed release keeps the verdict",
    mutations: [{
      file: "src/gate/verdict.ts",
      find: "report.warnings = [",
      replace: "throw error; report.warnings = [",
    }],
    filter: "a failed --done release keeps the verdict and warns on stderr",
  },
  {
    guard: "only a file known at spawn is preexisting",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "return spawn.existed.has(path) // guard: known at spawn",
      replace: "return true",
    }],
    filter: "an ignored file made after spawn is never called preexisting",
  },
  {
    guard: "the spawn HEAD is anchored with the snapshot",
    mutations: [{
      file: "src/anchor.ts",
      find: '(second ? `update ${second} ${companion!.oid}\\n` : "") +',
      replace: '"" +',
    }],
    filter: "the spawn HEAD is anchored with the snapshot",
  },
  {
    guard: "file evidence inside a submodule is unverified",
    mutations: [{
      file: "src/gate/repo.ts",
      find: 'found.set(path, { kind: "nested", repo: nested }); // guard: submodule evidence',
      replace: "",
    }],
    filter: "a file inside a submodule is unverified",
  },
];

const CASES: GuardCase[] = GUARDS.map((g) => ({ ...g, file: FILE }));

Deno.test("mutation: disabling each guard of gate against the shared git directory makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes every test of gate against the shared git directory", async () => {
  await assertControlPasses(CASES);
});
