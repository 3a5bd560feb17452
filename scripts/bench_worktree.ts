/**
 * Bench for worktree mode: spawn 8 children of a repository with 1,000 dirty files
 * (`handshake --worktree DIR --count 8`, as the binary runs) against the hand-made way:
 * 8 × `git worktree add` plus copying the dirty files with `cp`. Also reports the git
 * processes one spawn starts. Run with `deno run -A scripts/bench_worktree.ts`.
 *
 * @module
 */
import { join } from "node:path";
import { PERMISSIONS } from "../src/permissions.ts";
import { git, makeRepo, run, tempDir, writeFiles } from "../tests/_helpers.ts";

const TRACKED = 2_000;
const DIRTY = 1_000;
const CHILDREN = 8;
const HANDSHAKE = new URL("../handshake.ts", import.meta.url).pathname;

function name(i: number): string {
  return `d${String(i % 50).padStart(2, "0")}/f${String(i).padStart(5, "0")}.txt`;
}

async function removeAll(repo: string): Promise<void> {
  const list = await git(repo, ["worktree", "list", "--porcelain"]);
  for (const line of list.split("\n").filter((l) => l.startsWith("worktree ")).slice(1)) {
    await git(repo, ["worktree", "remove", "--force", "--force", line.slice(9)]);
  }
  const refs = await git(repo, ["for-each-ref", "--format=%(refname)", "refs/heads/tether/"]);
  for (const ref of refs.split("\n").filter(Boolean)) await git(repo, ["update-ref", "-d", ref]);
}

async function timed(label: string, body: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await body();
  const ms = performance.now() - start;
  console.log(`${label}: ${ms.toFixed(0)} ms`);
  return ms;
}

if (import.meta.main) {
  const files: Record<string, string> = {};
  for (let i = 0; i < TRACKED; i++) files[name(i)] = `line ${i}\n`;
  const repo = await makeRepo({ files });
  const kids = await tempDir("tether-bench-kids-");
  try {
    const dirty: Record<string, string> = {};
    for (let i = 0; i < DIRTY; i++) {
      dirty[i % 2 === 0 ? name(i) : `new/n${i}.txt`] = `dirty ${i}\n`;
    }
    await writeFiles(repo, dirty);
    const tether = await timed(`tether: handshake --worktree --count ${CHILDREN}`, async () => {
      const r = await run(Deno.execPath(), [
        "run",
        "--quiet",
        ...PERMISSIONS.handshake,
        HANDSHAKE,
        "--worktree",
        join(kids, "t"),
        "--count",
        String(CHILDREN),
      ], { cwd: repo });
      if (r.code !== 0) throw new Error(r.stderr);
    });
    await removeAll(repo);
    const script = `set -e
for i in $(seq 1 ${CHILDREN}); do
  git worktree add -q --detach "$KIDS/h$i" HEAD
  git ls-files -z -m -o --exclude-standard | xargs -0 cp --parents -t "$KIDS/h$i"
done`;
    const hand = await timed(`by hand: ${CHILDREN} × (git worktree add + cp)`, async () => {
      const r = await run("bash", ["-c", script], { cwd: repo, env: { KIDS: kids } });
      if (r.code !== 0) throw new Error(r.stderr);
    });
    console.log(`ratio tether / by hand: ${(tether / hand).toFixed(2)}`);
    await removeAll(repo);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(kids, { recursive: true });
  }
}
