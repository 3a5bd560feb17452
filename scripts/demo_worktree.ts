/**
 * The worktree-mode part of `deno task demo`: a parallel isolated batch of three children
 * spawned from a dirty parent; two land, the third changed the same lines as the first and
 * is refused with its paths. Every binary runs under its exact permission flags.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { bin, commitAll, git, makeRepo, tempDir, writeFiles } from "../tests/_helpers.ts";

const indent = (text: string) =>
  text.trimEnd().split("\n").map((l) => (l ? `    ${l}` : "")).join("\n");

function step(n: number, text: string) {
  console.log(`\n[${n}] ${text}`);
}

function result(file: string): string {
  return JSON.stringify({
    ok: true,
    summary: `changed ${file}`,
    files_changed: [file],
    errors: [],
    evidence: [{ kind: "file", ref: file, ok: true }],
  });
}

/** Run the worktree-mode demo in throwaway directories. */
export async function demoWorktree(): Promise<void> {
  console.log("== worktree mode: isolated children seeded with the parent's exact state");
  const repo = await makeRepo({
    files: { "app.ts": "export const greeting = 'hi';\n", "notes.md": "# notes\n" },
  });
  const kids = await tempDir("tether-demo-kids-");
  try {
    await writeFiles(repo, { "notes.md": "# notes\n\nuncommitted parent work\n" });
    step(1, `A parent with uncommitted work in notes.md: ${repo}`);
    const r = await bin(
      "handshake",
      ["wrap", "--worktree", join(kids, "batch"), "--count", "3", "--json"],
      { cwd: repo, stdin: "Improve the app.\n" },
    );
    const doc = JSON.parse(r.stdout);
    const paths: string[] = doc.worktrees.map((w: { path: string }) => w.path);
    step(
      2,
      "`handshake wrap --worktree DIR --count 3` makes three worktrees from one seed. Child 1's block:",
    );
    console.log(indent(doc.blocks[0]));
    const checks = await Promise.all(
      paths.map((p, i) => bin("verify", [], { cwd: p, stdin: doc.prompts[i] })),
    );
    step(3, "Each child's Step 0 in its own worktree:");
    console.log(indent(checks.map((c, i) => `child ${i + 1}: ${c.stdout.trim()}`).join("\n")));
    await writeFiles(paths[0]!, { "app.ts": "export const greeting = 'hello';\n" });
    await commitAll(paths[0]!, "child 1: friendlier greeting");
    await writeFiles(paths[1]!, { "test.ts": "// tests for app.ts\n" });
    await writeFiles(paths[2]!, { "app.ts": "export const greeting = 'hey';\n" });
    step(
      4,
      "Child 1 commits a change to app.ts; child 2 adds test.ts (uncommitted); child 3 edits the same line of app.ts.",
    );
    const files = ["app.ts", "test.ts", "app.ts"];
    for (const [i, path] of paths.entries()) {
      const land = await bin("gate", ["--worktree", path, "--seed", doc.seed, "--land"], {
        cwd: repo,
        stdin: result(files[i]!),
      });
      step(5 + i, `\`gate --worktree ${path} --seed <seed> --land\` (exit ${land.code}):`);
      console.log(indent(land.stdout));
    }
    step(8, "The parent's working tree now (its own notes.md edit kept):");
    console.log(indent(await git(repo, ["status", "--short"])));
  } finally {
    const list = await git(repo, ["worktree", "list", "--porcelain"]);
    for (const line of list.split("\n").filter((l) => l.startsWith("worktree ")).slice(1)) {
      await git(repo, ["worktree", "remove", "--force", line.slice(9)]);
    }
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(kids, { recursive: true });
  }
}

if (import.meta.main) await demoWorktree();
