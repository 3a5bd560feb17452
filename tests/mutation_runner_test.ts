/**
 * The mutation runner's own reading of `deno test` output: which tests failed decides
 * whether a mutant was killed by its guard's test. The runner that runs a mutant's tests
 * (`tests/_mutant_run.ts`) must report them as `deno test` does.
 */
import { assertEquals, assertExcludes, assertIncludes, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import { ROOT, run, tempDir } from "./_helpers.ts";
import { failedTests, phraseFilter } from "./_mutation.ts";

const OUTPUT = `running 3 tests from ./tests/x_test.ts
alpha one ... FAILED (718µs)
beta => not a failure ... ok (80µs)
gamma steps ...
  s1 ... FAILED (0ms)
gamma steps ... FAILED (due to 1 failed step) (1ms)

 ERRORS 

alpha one => ./tests/x_test.ts:1:6
error: Error: boom

gamma steps ... s1 => ./tests/x_test.ts:3:49
error: Error: x

 FAILURES 

alpha one => ./tests/x_test.ts:1:6
gamma steps ... s1 => ./tests/x_test.ts:3:49

FAILED | 1 passed | 2 failed (1 step) (10ms)
`;

Deno.test("mutation runner: the failed tests are read from the FAILURES section, a failed step counting for its test", () => {
  assertEquals(failedTests(OUTPUT), ["alpha one", "gamma steps"]);
  assertEquals(failedTests("ok | 3 passed | 0 failed (1s)\n"), []);
});

Deno.test("mutation runner: a test that did not fail is not its guard's kill, however the filter reads", () => {
  const filter = new RegExp(phraseFilter(["beta"]).slice(1, -1));
  assertEquals(failedTests(OUTPUT).filter((name) => filter.test(name)), []);
});

/** A test file of every shape the runner must report as `deno test` does. */
const SHAPES = `
Deno.test("alpha passes", () => {});
Deno.test("beta fails", () => { throw new Error("boom"); });
Deno.test({ name: "gamma ignored", ignore: true, fn() { throw new Error("no"); } });
Deno.test("delta steps", async (t) => {
  await t.step("s1", () => { throw new Error("x"); });
  await t.step({ name: "s2", fn: async (u) => { await u.step("inner", () => {}); } });
});
`;

async function runner(source: string, ...args: string[]) {
  const dir = await tempDir("tether-runner-");
  const file = join(dir, "x_test.ts");
  await Deno.writeTextFile(file, source);
  return await run(Deno.execPath(), [
    "run",
    "--quiet",
    "--allow-all",
    "--no-check",
    join(ROOT, "tests/_mutant_run.ts"),
    file,
    ...args,
  ], { env: { NO_COLOR: "1" } });
}

Deno.test("mutant runner: failed tests and failed steps are named as deno test names them", async () => {
  const all = await runner(SHAPES);
  assertEquals(all.code, 1, all.stderr);
  assertEquals(failedTests(all.stdout), ["beta fails", "delta steps"]);
  assertIncludes(all.stdout, "FAILED | 1 passed | 2 failed");
  assertIncludes(all.stdout, "gamma ignored ... ignored");
  assertIncludes(all.stdout, "    inner ... ok");

  const one = await runner(SHAPES, "--filter", "/^alpha/");
  assertEquals([one.code, failedTests(one.stdout)], [0, []]);
  assertIncludes(one.stdout, "ok | 1 passed | 0 failed");

  const fast = await runner(SHAPES, "--fail-fast");
  assertEquals(failedTests(fast.stdout), ["beta fails"]);
  assertExcludes(fast.stdout, "delta steps ...");

  // With --fail-fast a failed step ends its test (which has failed): s2 never runs.
  const steps = await runner(SHAPES, "--fail-fast", "--filter", "/^delta/");
  assertEquals([steps.code, failedTests(steps.stdout)], [1, ["delta steps"]]);
  assertIncludes(steps.stdout, "  s1 ... FAILED");
  assertExcludes(steps.stdout, "s2 ...");
});

Deno.test("mutant runner: a module that does not load, or an API it lacks, is no test's failure", async () => {
  for (
    const source of [
      `import "./missing.ts";\nDeno.test("a", () => {});`,
      `Deno.test.only("a", () => {});`,
      `Deno.test({ name: "a", permissions: { read: true }, fn() {} });`,
      `Deno.test("a", async (t) => { await t.step({ name: "s", fn() {}, permissions: {} }); });`,
    ]
  ) {
    const r = await runner(source);
    assertEquals(r.code, 3, `${source}\n${r.stdout}${r.stderr}`);
    assertEquals(failedTests(r.stdout), []);
    assertIncludes(r.stderr, "mutant runner: ");
  }
});

Deno.test("mutant runner: a rejection no one handles fails the run but names no test, as deno test names none; one a test handles is no failure", async () => {
  const stray = await runner(`
Deno.test("alpha waits", async () => { await new Promise((r) => setTimeout(r, 30)); });
Deno.test("beta rejects", async () => {
  Promise.reject(new Error("stray"));
  await new Promise((r) => setTimeout(r, 30));
});
new Promise((_, reject) => setTimeout(() => reject(new Error("early")), 5));
`);
  assertOk(stray.code !== 0, stray.stdout);
  assertEquals(failedTests(stray.stdout), []);
  const handled = await runner(`
Deno.test("gamma handles", async () => {
  const h = (e: PromiseRejectionEvent) => e.preventDefault();
  addEventListener("unhandledrejection", h);
  Promise.reject(new Error("x"));
  await new Promise((r) => setTimeout(r, 10));
  removeEventListener("unhandledrejection", h);
});
`);
  assertEquals(
    [handled.code, failedTests(handled.stdout)],
    [0, []],
    handled.stdout + handled.stderr,
  );
});
