/**
 * The README's worktree-mode example (`# readme-test: worktree-mode`), run as written by
 * bash with the four commands on PATH as the real entry points under their exact flags.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { git, writeFiles } from "./_helpers.ts";
import { makeSite, markedExamples, README, runScript } from "./_readme.ts";
import { linkedWorktrees } from "./_worktree_fixture.ts";

Deno.test("README: the worktree-mode example runs as written: spawn, Step 0, land, worktree removed", async () => {
  const example = markedExamples(README).get("worktree-mode");
  assertOk(example, "README example worktree-mode is missing");
  const site = await makeSite();
  try {
    await writeFiles(site.repo, { "src/app.ts": "export const app = 2; // parent's edit\n" });
    const r = await runScript(site, "bash", example.code);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    assertIncludes(r.stdout, "verdict: accept\n");
    assertIncludes(r.stdout, "landed: 1 path: greeting.txt\n");
    assertOk(r.stdout.endsWith("hello\n"), r.stdout);
    assertEquals(await Deno.readTextFile(join(site.repo, "greeting.txt")), "hello\n");
    assertEquals(await git(site.repo, ["status", "--porcelain"]), " M src/app.ts\n?? greeting.txt");
    assertEquals(await linkedWorktrees(site.repo), []);
    assertEquals(await git(site.repo, ["branch", "--list", "tether/*"]), "");
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its temp dir");
  } finally {
    await Deno.remove(site.root, { recursive: true });
  }
});
