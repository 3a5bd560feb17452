/**
 * Every code example of the API docs (a `ts` block in a JSDoc comment of `mod.ts`, `src/`
 * or `tests/`) runs, one test each, named as `deno test --doc` names it; and the code and
 * the examples type-check, as `deno task check` checks them (the suite runs with
 * `--no-check`).
 *
 * The examples run here, in one test module, rather than under `deno test --doc`, which
 * makes a test worker for each: about 60 ms of CPU each, some 230 times a run.
 *
 * @module
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import { type Example, examplesOf, fileUrl, moduleOf, tsFiles } from "./_doc_examples.ts";
import { ROOT, run, tempDir } from "./_helpers.ts";
import config from "../deno.json" with { type: "json" };

/** Where `deno task test` looks for examples (as its `--doc` did). */
const ROOTS = ["mod.ts", "src", "tests"];

const examples: Example[] = [];
for (const root of ROOTS) {
  for (const file of await tsFiles(join(ROOT, root))) {
    examples.push(...examplesOf(ROOT, file, await Deno.readTextFile(file)));
  }
}

/** A temp dir for the examples' modules, made once. */
let dir: Promise<string> | undefined;

Deno.test("the code and the API docs' examples type-check (deno task check), and there are examples", async () => {
  assertOk(examples.length > 100, `only ${examples.length} examples found`);
  // The suite itself runs with --no-check: one check of everything here, beside the other
  // tests, costs less than `deno test`'s check before them plus one of the examples.
  const task = (config.tasks.check as string).split(" ");
  assertEquals(task.slice(0, 3), ["deno", "check", "--doc"]);
  const r = await run(Deno.execPath(), ["check", "--quiet", ...task.slice(2)], { cwd: ROOT });
  assertEquals(r.code, 0, r.stdout + r.stderr);
});

for (const example of examples) {
  Deno.test(example.name, async () => {
    const exported = Object.keys(await import(fileUrl(example.file)));
    const module = join(await (dir ??= tempDir("tether-doc-")), `${examples.indexOf(example)}.ts`);
    await Deno.writeTextFile(module, moduleOf(example.file, example.body, exported));
    const { default: runExample } = await import(fileUrl(module));
    await runExample();
  });
}

Deno.test("doc examples: a ts block runs with the documented module's exports in scope; other blocks do not run", () => {
  const text = [
    "/**",
    " * ```ts",
    ' * import { helper as mine } from "./lib.ts";',
    ' * const answer = await import("./other.ts");',
    " * assertOk(mine && answer && exported);",
    " * ```",
    " * ```ts ignore",
    " * broken(",
    " * ```",
    " * ```sh",
    " * also",
    " * ```",
    " * ```typescript",
    " * exported;",
    " * ```",
    " */",
    "export const exported = 1;",
  ].join("\n");
  const found = examplesOf("/repo", "/repo/src/x.ts", text);
  assertEquals(found.map((e) => e.name), ["src/x.ts#2-7.ts", "src/x.ts#13-16.ts"]);
  const module = moduleOf("/repo/src/x.ts", found[0]!.body, ["exported", "helper", "assertOk"]);
  assertOk(module.includes('import { helper as mine } from "file:///repo/src/lib.ts";'), module);
  assertOk(module.includes('await import("file:///repo/src/other.ts")'), module);
  assertOk(module.includes("const { exported, assertOk } = documented;"), module);
  assertOk(!module.includes("helper,") && !module.includes("broken"), module);
});
