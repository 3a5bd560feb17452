/**
 * `deno task demo`: the README's main job. In throwaway repositories it shows a parent
 * dispatching with `handshake wrap`, a subagent verifying (match), the tree changing, the
 * subagent verifying again (mismatch, finding shown), worktree mode, an isolated Claude Code
 * subagent alone and with tether's hooks (the real CLI, offline), and then the coord trial
 * where it is present. Every binary runs under its exact permission flags.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { bin, git, makeRepo, ROOT, writeFiles } from "../tests/_helpers.ts";

const indent = (text: string) =>
  text.trimEnd().split("\n").map((l) => (l ? `    ${l}` : "")).join("\n");

function step(n: number, text: string) {
  console.log(`\n[${n}] ${text}`);
}

async function handshakeDemo(): Promise<void> {
  console.log("== handshake and verify: a subagent checks the tree before it claims anything");
  const repo = await makeRepo({
    files: { "README.md": "# demo\n", "src/app.ts": "export const x = 1;\n" },
  });
  step(1, `A parent agent works in a throwaway repository: ${repo}`);
  const wrapped = await bin("handshake", ["wrap"], {
    cwd: repo,
    stdin: "Review src/app.ts and report.\n",
  });
  step(2, "The parent runs `handshake wrap`: the block goes first in the subagent's prompt.");
  console.log(indent(wrapped.stdout));
  const first = await bin("verify", [], { cwd: repo, stdin: wrapped.stdout });
  step(
    3,
    `The subagent's first action is \`verify\` (exit ${first.code}: match). It may now make tree-grounded claims.`,
  );
  console.log(indent(first.stdout));
  await writeFiles(repo, { "scratch.log": "a sibling wrote this\n" });
  await git(repo, ["checkout", "-q", "-b", "hotfix"]);
  step(
    4,
    "Meanwhile the tree changes: a sibling writes scratch.log and someone switches to branch hotfix.",
  );
  const second = await bin("verify", [], { cwd: repo, stdin: wrapped.stdout });
  step(
    5,
    `The same dispatch verified again (exit ${second.code}: mismatch). The subagent halts with this finding:`,
  );
  console.log(indent(second.stdout));
  const missing = await bin("verify", [], { cwd: repo, stdin: "Review src/app.ts.\n" });
  step(6, `A prompt without a block takes the missing path (exit ${missing.code}):`);
  console.log(indent(missing.stdout));
  await Deno.remove(repo, { recursive: true });
}

if (import.meta.main) {
  await handshakeDemo();
  console.log("");
  await (await import("./demo_worktree.ts")).demoWorktree();
  console.log("");
  await (await import("./demo_claude.ts")).demoClaude();
  const coord = join(ROOT, "scripts", "demo_coord.ts");
  const present = await Deno.stat(coord).then(() => true, () => false);
  if (present) {
    console.log("");
    const mod = await import(new URL(`file://${coord}`).href);
    await mod.demoCoord();
  }
}
