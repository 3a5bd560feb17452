/**
 * Tests clean up after themselves: every temp dir a test module makes through
 * tests/_helpers.ts is gone after the module's last test, even when a test forgot to
 * remove it or failed half-way, so a whole `deno task test` run leaves nothing in
 * `$TMPDIR`. Each check runs a child `deno test --parallel` with a `$TMPDIR` of its own
 * and looks at it afterwards.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { ROOT, run } from "./_helpers.ts";

/** Run test modules in a child `deno test` whose `$TMPDIR` is a fresh dir; list what is left there. */
async function leftAfter(
  files: string[],
): Promise<{ code: number; output: string; left: string[] }> {
  // Made directly, not through tempDir(): this check must not rely on the mechanism it checks.
  const tmp = await Deno.makeTempDir({ prefix: "tether-tmpcheck-" });
  try {
    const r = await run(Deno.execPath(), [
      "test",
      "--quiet",
      "--parallel",
      "--allow-run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      ...files.map((f) => join(ROOT, f)),
    ], { cwd: ROOT, env: { TMPDIR: tmp, NO_COLOR: "1" } });
    const left: string[] = [];
    for await (const entry of Deno.readDir(tmp)) left.push(entry.name);
    return { code: r.code, output: r.stdout + r.stderr, left };
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

Deno.test("a test module that forgets its temp dirs or fails half-way leaves nothing in $TMPDIR", async () => {
  const r = await leftAfter(["tests/_tmp_leaky_fixture.ts"]);
  // The fixture ran: one test passed (it made its dirs under the child's $TMPDIR), one failed.
  assertIncludes(r.output, "1 passed | 1 failed");
  assertEquals(r.code, 1);
  assertEquals(r.left, []);
});

Deno.test("test modules that used to leak temp dirs leave nothing in $TMPDIR", async () => {
  const r = await leftAfter(["tests/contract_jail_test.ts", "tests/roundtrip_test.ts"]);
  assertEquals(r.code, 0, r.output);
  assertEquals(r.left, []);
});
