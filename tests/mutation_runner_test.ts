/**
 * The mutation runner's own reading of `deno test` output: which tests failed decides
 * whether a mutant was killed by its guard's test.
 */
import { assertEquals } from "../src/_assert.ts";
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
