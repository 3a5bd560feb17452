/**
 * The README's worktree-mode example, run as written by bash, with `handshake`, `verify`
 * and `gate` as the real entry points under their exact permission flags.
 */
import { join } from "node:path";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { git, makeRepo, ROOT, run, writeFiles } from "./_helpers.ts";
import { removeWorktrees } from "./_worktree_fixture.ts";

/** The first ```sh block after the heading. */
async function example(heading: string): Promise<string> {
  const text = await Deno.readTextFile(join(ROOT, "README.md"));
  const after = text.slice(text.indexOf(`\n${heading}\n`));
  const start = after.indexOf("```sh\n") + 6;
  return after.slice(start, after.indexOf("\n```", start) + 1);
}

function prelude(): string {
  const fn = (name: "handshake" | "verify" | "gate") =>
    `${name}() { ${JSON.stringify(Deno.execPath())} run --quiet --no-prompt ${
      PERMISSIONS[name].join(" ")
    } ${JSON.stringify(join(ROOT, `${name}.ts`))} "$@"; }`;
  return `set -euo pipefail\n${fn("handshake")}\n${fn("verify")}\n${fn("gate")}\n`;
}

Deno.test("README: the worktree-mode example runs as written", async () => {
  const script = await example("## Worktree mode (handshake v2)");
  const repo = await makeRepo();
  try {
    await writeFiles(repo, { "README.md": "# fixture, edited by the parent\n" });
    const r = await run("bash", ["-c", prelude() + script], {
      cwd: repo,
      env: {
        NO_COLOR: "1",
        GIT_AUTHOR_NAME: "Child",
        GIT_AUTHOR_EMAIL: "child@example.invalid",
        GIT_COMMITTER_NAME: "Child",
        GIT_COMMITTER_EMAIL: "child@example.invalid",
      },
    });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "environment-verified: ");
    assertIncludes(r.stdout, "verdict: accept\n");
    assertIncludes(r.stdout, "landed: 1 path: greeting.txt\n");
    assertEquals(r.stdout.endsWith("hello\n"), true);
    assertEquals(await Deno.readTextFile(join(repo, "greeting.txt")), "hello\n");
    assertEquals(
      await Deno.readTextFile(join(repo, "README.md")),
      "# fixture, edited by the parent\n",
    );
    assertEquals(await git(repo, ["status", "--porcelain"]), " M README.md\n?? greeting.txt");
  } finally {
    await removeWorktrees(repo);
    await Deno.remove(repo, { recursive: true });
  }
});
