/**
 * Bench rows for the working context and the evidence gate on large dirty trees, each
 * against `git status --porcelain -uall` on the same tree (target: the difference under
 * 0.5 s):
 *
 * - `handshake wrap --context` with 10,000 untracked files;
 * - `gate --since` with those 10,000 untracked files (a child edits one file, adds one);
 * - `gate --since` with 10,000 changed files (a parent that edited all 10,000 committed
 *   files; a child that edits 100 of them further and commits 100 new ones).
 *
 * Called from `scripts/bench.ts` (`deno task bench --only gate`); alone, in the source
 * form: `deno run -A scripts/bench_gate.ts`.
 *
 * @module
 */
import { git, makeRepo, run } from "../tests/_helpers.ts";
import {
  alternate,
  formNote,
  type GitShim,
  gitShim,
  progress,
  type Row,
  table,
  tether,
  writeMany,
} from "./_bench.ts";

const FILES = 10_000;
const STATUS = "`git status --porcelain -uall`";

function name(i: number): string {
  return `d${String(i % 100).padStart(2, "0")}/f${String(i).padStart(5, "0")}.txt`;
}

const names = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => name(from + i));

const status = (repo: string) => run("git", ["status", "--porcelain", "-uall"], { cwd: repo });

/** The spawn snapshot, as `handshake --context --json` records it. */
async function snapshot(repo: string): Promise<string> {
  const r = await tether("handshake", ["--context", "--json"], { cwd: repo });
  const id = r.code === 0 ? JSON.parse(r.stdout).snapshot_id : undefined;
  if (typeof id !== "string") throw new Error(`handshake --context failed: ${r.stderr}`);
  return id;
}

/** A gate run that must accept; returns nothing, throws otherwise. */
function gate(repo: string, since: string, claimed: string[], env: Record<string, string> = {}) {
  const result = JSON.stringify({
    ok: true,
    summary: "bench child",
    files_changed: claimed,
    errors: [],
    evidence: [{ kind: "file", ref: claimed[0], ok: true }],
  });
  return async () => {
    const r = await tether("gate", ["--since", since, "--json"], { cwd: repo, stdin: result, env });
    if (r.code !== 0) {
      throw new Error(`gate did not accept (exit ${r.code}): ${r.stdout.slice(0, 400)}`);
    }
  };
}

async function untracked(shim: GitShim): Promise<Row[]> {
  progress(`building a repository with ${FILES.toLocaleString("en")} untracked files…`);
  const repo = await makeRepo();
  try {
    await writeMany(repo, names(0, FILES), (i) => `untracked ${i}\n`);
    const wrap = (env: Record<string, string> = {}) => async () => {
      const r = await tether("handshake", ["wrap", "--context"], { cwd: repo, stdin: "task", env });
      if (r.code !== 0) throw new Error(`handshake wrap --context: ${r.stderr}`);
    };
    const context = await alternate(5, wrap(), () => status(repo));
    const contextGit = await shim.count(wrap(shim.env));
    const since = await snapshot(repo);
    await writeMany(repo, ["README.md", "child/new.txt"], (i) => `child ${i}\n`);
    const claimed = ["README.md", "child/new.txt"];
    const timed = await alternate(5, gate(repo, since, claimed), () => status(repo));
    return [
      {
        name: `\`handshake wrap --context\` (${formNote()}), 10,000 untracked files`,
        ...context,
        baselineCommand: STATUS,
        target: { kind: "delta", maxMs: 500 },
        git: contextGit,
      },
      {
        name: `\`gate --since\` (${formNote()}), 10,000 untracked files`,
        ...timed,
        baselineCommand: STATUS,
        target: { kind: "delta", maxMs: 500 },
        git: await shim.count(gate(repo, since, claimed, shim.env)),
      },
    ];
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

async function changed(shim: GitShim): Promise<Row> {
  progress(`building a repository with ${FILES.toLocaleString("en")} changed files…`);
  const repo = await makeRepo();
  try {
    await writeMany(repo, names(0, FILES), (i) => `file ${i}\n`);
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "10,000 files"]);
    await writeMany(repo, names(0, FILES), (i) => `file ${i}, edited by the parent\n`);
    const since = await snapshot(repo);
    // The child edits 100 already-dirty files further and commits 100 new ones.
    await writeMany(repo, names(0, 100), (i) => `file ${i}, edited by the child\n`);
    await writeMany(repo, names(FILES, 100), (i) => `new ${i}\n`);
    await git(repo, ["add", "--", ...names(FILES, 100)]);
    await git(repo, ["commit", "-q", "-m", "child"]);
    const claimed = [...names(FILES, 100), ...names(0, 100)];
    const timed = await alternate(5, gate(repo, since, claimed), () => status(repo));
    return {
      name: `\`gate --since\` (${formNote()}), 10,000 changed files`,
      ...timed,
      baselineCommand: STATUS,
      target: { kind: "delta", maxMs: 500 },
      git: await shim.count(gate(repo, since, claimed, shim.env)),
    };
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

/**
 * The context and gate rows.
 *
 * @param shim The git shim that counts processes.
 * @returns Three rows.
 * @throws {Error} when a command fails or gate does not accept the honest child.
 */
export async function benchGate(shim: GitShim): Promise<Row[]> {
  return [...await untracked(shim), await changed(shim)];
}

if (import.meta.main) {
  const shim = await gitShim();
  try {
    for (const line of table(await benchGate(shim))) console.log(line);
  } finally {
    await shim.remove();
  }
}
