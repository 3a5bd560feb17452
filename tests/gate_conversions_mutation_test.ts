/**
 * Mutation tests for the guards of gate's reading of a converted checkout (CRLF, an
 * encoding, a filter, `ident`): with each disabled in a copy of the code, a test in
 * `tests/gate_conversions_test.ts` fails.
 */
import { assertControlPasses, assertEachMutantFails, type GuardCase } from "./_mutation.ts";

const TESTS = "tests/gate_conversions_test.ts";

const CASES: GuardCase[] = [
  {
    guard: "git's reading of a converted file counts only under the spawn's conversion settings",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "git.conversions === settings.key; // tether:guard gate-conversions-same",
      replace: "settings.key !== null;",
    }],
    file: TESTS,
    filter: "an untouched file of a CRLF checkout",
  },
  {
    guard: "and only where the attributes that apply are the spawn's",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: 'const asAtSpawn = (path: string) => settingsSame && reading(path) === "same";',
      replace: "const asAtSpawn = (path: string) => settingsSame || reading(path) !== null;",
    }],
    file: TESTS,
    filter: "an encoding the child drops",
  },
  {
    guard:
      "a changed attributes file keeps a path only when its conversion attributes are the spawn's",
    mutations: [{
      file: "src/gate/attribute_files.ts",
      find: "const kept = new Set(redo.filter((p) => action(then, p) === action(now, p)));",
      replace: "const kept = new Set(redo.filter((p) => then !== now));",
    }],
    file: TESTS,
    filter: "an encoding the child drops",
  },
  {
    guard: "a file neither shown unchanged nor known to be changed is unknown",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "if (!told) unknown.add(path); // tether:guard gate-unknown",
      replace: "",
    }],
    file: TESTS,
    filter: "an untouched file of a CRLF checkout",
  },
  {
    guard: "a file under a filter is unknown",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "asAtSpawn(path) && !filters(a) && (",
      replace: "asAtSpawn(path) && (",
    }],
    file: TESTS,
    filter: "a filter checked out",
  },
  {
    guard: "an unknown path is not observed",
    mutations: [{
      file: "src/gate/observe.ts",
      find: ".filter((p) => !unknown.has(p)); // tether:guard gate-unknown-held",
      replace: ".filter((p) => p !== null);",
    }],
    file: TESTS,
    filter: "an untouched file of a CRLF checkout",
  },
  {
    guard: "file evidence for an unknown path is unverified",
    mutations: [{
      file: "src/gate/evidence.ts",
      find: "if (spawn?.unknown?.has(path)) { // tether:guard gate-evidence-unknown",
      replace: "if (spawn?.unknown?.has(path + '\\0')) {",
    }],
    file: TESTS,
    filter: "UTF-16",
  },
  {
    guard: "today's attributes are read as hash-object reads them, without the index's",
    mutations: [{
      file: "src/gate/attribute_files.ts",
      find: "env: { GIT_INDEX_FILE: privateIndexPath(side.dirs.commonDir) }, // tether:guard",
      replace: "env: {}, //",
    }],
    file: TESTS,
    filter: "an encoding the child drops",
  },
  {
    guard:
      "a file holding what some checkout of the blob writes is unknown where git's reading says changed",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "for (const path of await checkoutLike(repo, now, weighed, trees)) {",
      replace: "for (const path of await checkoutLike(repo, now, [], trees)) {",
    }],
    file: TESTS,
    filter: "a touch or an index-only step leaves an untouched CRLF file unconfirmed",
  },
  {
    guard: "an ident file that differs from its blob only inside $Id: … $ is unknown",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "else if (a?.ident && filtered?.get(path) === trees.before.get(path)!.oid) {",
      replace: "else if (a === null) {",
    }],
    file: TESTS,
    filter: "an ident file checked out with CRLF before the conversion was dropped",
  },
  {
    guard: "a file holding its blob's bytes where a checkout re-encodes or filters is unknown",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "if (asAtSpawn(path) && (a?.encoding || filters(a))) unknown.add(path);",
      replace: "",
    }],
    file: TESTS,
    filter: "the blob's own bytes written over a UTF-16 checkout are listed",
  },
  {
    guard: "file evidence is hashed with every filter pinned to none",
    mutations: [{
      file: "src/gate/repo.ts",
      find: "const pins = await readFilterPins(top); // tether:guard gate-evidence-pins",
      replace: "const pins: string[] = [];",
    }],
    file: TESTS,
    filter: "file evidence never runs a clean filter the child planted",
  },
  {
    guard: "text=auto writes a blob that looks binary as it is",
    mutations: [{
      file: "src/gate/ident.ts",
      find: "return (printable >> 7) >= nonprintable;",
      replace: "return printable >= 0;",
    }],
    file: TESTS,
    filter: "under text=auto a blob that looks binary is written as it is",
  },
  {
    guard: "the text attribute decides before the older crlf one",
    mutations: [{
      file: "src/gate/conversion_rules.ts",
      find: 'let text = a.text; // "set", "unset", "auto" or "unspecified"',
      replace: 'let text = a.crlf === "unset" ? "unset" : a.text;',
    }],
    file: TESTS,
    filter: "text decides before the older crlf attribute",
  },
  {
    guard: "text=auto writes a blob holding a CR as it is",
    mutations: [{
      file: "src/gate/ident.ts",
      find: "if (c === 0x0d || c === 0) return false;",
      replace: "if (c === 0) return false;",
    }],
    file: TESTS,
    filter: "under text=auto a blob holding a CR is written as it is",
  },
  {
    guard: "an ident file is taken with CRLF only where the spawn's settings write CRLF",
    mutations: [{
      file: "src/gate/converted_files.ts",
      find: "return { ident, crlf: ident && crlf };",
      replace: "return { ident, crlf: ident };",
    }],
    file: TESTS,
    filter: "a CRLF rewrite of an ident file where nothing converts line ends is listed",
  },
];

Deno.test("mutation: disabling a conversion guard of gate makes its test fail", async (t) => {
  await assertEachMutantFails(t, CASES);
});

Deno.test("mutation: the unmutated copy passes the tests of gate's conversion guards", async () => {
  await assertControlPasses(CASES);
});
