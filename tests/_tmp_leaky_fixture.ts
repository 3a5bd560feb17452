/**
 * A test module that cleans up after nothing, run by tests/tmp_cleanup_test.ts in a child
 * `deno test` with its own `$TMPDIR`: one test leaves a repository and a coord fixture
 * behind, one fails half-way. Not named `*_test.ts`, so the suite never runs it directly.
 *
 * @module
 */
import { makeCoordRepo } from "./_coord_fixture.ts";
import { makeRepo, tempDir } from "./_helpers.ts";

/** Whether a path exists under the child's `$TMPDIR` (proof the fixture made something there). */
async function madeUnderTmp(path: string): Promise<void> {
  const tmp = await Deno.realPath(Deno.env.get("TMPDIR")!);
  if (!path.startsWith(`${tmp}/`) || !(await Deno.stat(path)).isDirectory) {
    throw new Error(`fixture dir ${path} is not under ${tmp}`);
  }
}

Deno.test("leaves a repository and a coord fixture behind", async () => {
  await madeUnderTmp(await makeRepo());
  await madeUnderTmp((await makeCoordRepo()).root);
});

Deno.test("fails half-way, after making a temp dir", async () => {
  await madeUnderTmp(await tempDir());
  throw new Error("this test fails on purpose");
});
