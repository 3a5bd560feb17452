/**
 * Mutation tests: disable a guard in a copy of the code and show that the test guarding
 * it then fails, so the guard is proved to matter.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { ROOT, run, tempDir } from "./_helpers.ts";

/** Copy the project, replace `find` by `replace` in one file, run one test by name. */
async function mutantRun(
  file: string,
  find: string,
  replace: string,
  testFile: string,
  filter: string,
) {
  const copy = await tempDir("tether-mutant-");
  for (const name of ["deno.json", "deno.lock", "gate.ts", "handshake.ts", "verify.ts"]) {
    await Deno.copyFile(join(ROOT, name), join(copy, name)).catch(() => {});
  }
  for (const dir of ["src", "tests"]) await run("cp", ["-R", join(ROOT, dir), join(copy, dir)]);
  const path = join(copy, file);
  const source = await Deno.readTextFile(path);
  assertIncludes(source, find);
  await Deno.writeTextFile(path, source.replace(find, replace));
  return await run(Deno.execPath(), [
    "test",
    "--no-check",
    "--allow-run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--filter",
    filter,
    join(copy, testFile),
  ], { cwd: copy });
}

/** The mutant was killed by an assertion, not by a load error. */
function assertKilled(r: { code: number; stdout: string }): void {
  assertEquals(r.code !== 0, true, r.stdout);
  assertIncludes(r.stdout, "AssertionError");
  assertIncludes(r.stdout, "0 passed | 1 failed");
}

Deno.test("mutation control: the unmutated copy passes the same test", async () => {
  const r = await mutantRun(
    "src/context/remote.ts",
    "const trimmed = url.trim();",
    "const trimmed = url.trim();",
    "tests/context_capture_test.ts",
    "context strips a token",
  );
  assertEquals(r.code, 0, r.stdout);
  assertIncludes(r.stdout, "1 passed | 0 failed");
});

Deno.test("mutation: without credential stripping the remote-token test fails", async () => {
  const r = await mutantRun(
    "src/context/remote.ts",
    "const trimmed = url.trim();",
    "return url; const trimmed = url.trim();",
    "tests/context_capture_test.ts",
    "context strips a token",
  );
  assertKilled(r);
});

Deno.test("mutation: without quoting risky values the block-injection test fails", async () => {
  const r = await mutantRun(
    "src/show.ts",
    "return risky ? quoteLine(value) : value;",
    "return risky ? value : value;",
    "tests/context_capture_test.ts",
    "context quotes a file name",
  );
  assertKilled(r);
});

Deno.test("mutation: attributing every observed change to the child fails the sibling test", async () => {
  const r = await mutantRun(
    "src/gate/changes.ts",
    "const claims = new Set(claimed.map(canonicalClaim));",
    "const claims = new Set([...claimed.map(canonicalClaim), ...observed]);",
    "tests/gate_cli_test.ts",
    "never attributes a sibling's file",
  );
  assertKilled(r);
});
