/**
 * `deno task bench`: one run, one table. Each row times a tether binary, run as it ships
 * (installed by `deno task install` into a temp root: the one-file bundle behind its
 * launcher), against its git baseline in the same run, as medians of alternating rounds
 * after a warm-up, and gives the git processes tether starts (counted in a separate run
 * through a `git` shim first on PATH, so the shim never skews a timing). Not a test: it
 * prints numbers and never fails on them.
 *
 * `deno task bench --only verify,gate` runs only those parts (`verify`, `gate`, `coord`,
 * `worktree`), still into one table; `--source` runs `deno run` of the source instead.
 *
 * Rows: `verify` and `handshake` (a 50-file repository, 100,000 files, exact mode), and the
 * git processes of each on the small one; `handshake wrap --context`
 * and `gate --since` on 10,000 untracked or changed files (`bench_gate.ts`); `coord inbox`,
 * `coord status` and `coord wait` over 10,000 messages (`bench_coord.ts`); spawning 8
 * worktree children of 1,000 dirty files, verify and land in one (`bench_worktree.ts`).
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { git, makeRepo, run } from "../tests/_helpers.ts";
import {
  alternate,
  benchArgs,
  type Form,
  formNote,
  type GitShim,
  gitShim,
  installTether,
  median,
  progress,
  type Row,
  table,
  tether,
  wall,
  writeMany,
} from "./_bench.ts";
import { benchGate } from "./bench_gate.ts";
import { benchCoord } from "./bench_coord.ts";
import { benchWorktree } from "./bench_worktree.ts";
import { benchClaude } from "./bench_claude.ts";

const RECIPE =
  "git rev-parse HEAD; git rev-parse --abbrev-ref HEAD; pwd; git status --porcelain | sha256sum";

async function verifies(
  repo: string,
  prompt: string,
  env: Record<string, string> = {},
  form: Form = "installed",
) {
  // As a shell starts it: $PWD names the directory.
  const r = await tether(
    "verify",
    [],
    { cwd: repo, stdin: prompt, env: { PWD: repo, ...env } },
    form,
  );
  if (r.code !== 0) throw new Error(`verify did not match: ${r.stdout}${r.stderr}`);
}

async function handshakes(repo: string, args: string[] = [], env: Record<string, string> = {}) {
  const r = await tether("handshake", args, { cwd: repo, env: { PWD: repo, ...env } });
  if (r.code !== 0) throw new Error(`handshake failed: ${r.stderr}`);
  return r.stdout;
}

const recipe = (repo: string) => run("bash", ["-c", RECIPE], { cwd: repo });
const status = (repo: string) => run("git", ["status", "--porcelain"], { cwd: repo });

/** A committed repository of `files` files (100 a directory), its index refreshed once. */
async function bigRepo(files: number): Promise<string> {
  const repo = await makeRepo();
  const paths = Array.from({ length: files }, (_, i) => `src/d${Math.floor(i / 100)}/f${i}.txt`);
  await writeMany(repo, paths, (i) => `${i}\n`);
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "many files"]);
  await git(repo, ["status", "--porcelain"]);
  return repo;
}

/** A repository of 50 files in a few directories, two of them edited and one untracked. */
async function smallRepo(): Promise<string> {
  const repo = await makeRepo();
  await writeMany(
    repo,
    Array.from({ length: 49 }, (_, i) => `src/d${i % 5}/f${i}.ts`),
    (i) => `export const n = ${i};\n`,
  );
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "fifty files"]);
  await Deno.writeTextFile(join(repo, "src/d0/f0.ts"), "export const n = -1;\n");
  await Deno.writeTextFile(join(repo, "src/d1/f1.ts"), "export const n = -2;\n");
  await Deno.writeTextFile(join(repo, "notes.md"), "untracked\n");
  return repo;
}

/**
 * What no Deno program that runs git status can beat: it also pays for starting Deno and a
 * process from Deno (the first one costs several ms) and for hashing the output.
 */
async function leastDeno(repo: string): Promise<{ tether: number; baseline: number }> {
  const least = join(repo, "..", `least-${crypto.randomUUID()}.js`);
  await Deno.writeTextFile(
    least,
    'const o = await new Deno.Command("git", { args: ["status", "--porcelain"], ' +
      'stdout: "piped", stderr: "piped" }).output();\n' +
      'await crypto.subtle.digest("SHA-256", o.stdout);\n',
  );
  try {
    return await alternate(
      5,
      () => run(Deno.execPath(), ["run", "--no-config", "--allow-run=git", least], { cwd: repo }),
      () => recipe(repo),
    );
  } finally {
    await Deno.remove(least);
  }
}

async function benchVerify(shim: GitShim): Promise<Row[]> {
  const rows: Row[] = [];
  const small = await smallRepo();
  try {
    const smallPrompt = await handshakes(small, ["wrap"]);
    const s = await alternate(9, () => verifies(small, smallPrompt), () => recipe(small));
    const verifyGit = await shim.count(() => verifies(small, smallPrompt, shim.env));
    rows.push({
      name: `\`verify\` (${formNote()}), 50-file repository`,
      ...s,
      baselineCommand: `the bash recipe \`${RECIPE}\``,
      target: { kind: "ratio", max: 2 },
      git: verifyGit,
    });
    const h = await alternate(9, () => handshakes(small), () => recipe(small));
    const handshakeGit = await shim.count(() => handshakes(small, [], shim.env));
    rows.push({
      name: `\`handshake\` (v1 block, ${formNote()}), 50-file repository`,
      ...h,
      baselineCommand: "the bash recipe, as row 1",
      target: { kind: "ratio", max: 2 },
      git: handshakeGit,
    });
    rows.push({
      name: "git processes per v1 `verify` / `handshake`, 50-file repository",
      tether: NaN,
      baseline: NaN,
      baselineCommand: "none (the bash recipe starts 3 git processes)",
      target: { kind: "processes", max: 5, counts: [verifyGit, handshakeGit] },
      git: `${verifyGit} / ${handshakeGit}`,
    });
    if (formNote() === "installed") {
      const source = await alternate(
        9,
        () => verifies(small, smallPrompt, {}, "source"),
        () => recipe(small),
      );
      rows.push({
        name: "`verify` (`deno run` of the source), 50-file repository",
        ...source,
        baselineCommand: "the bash recipe, as row 1",
        target: { kind: "none" },
      });
    }
    rows.push({
      name: "floor: a Deno program that only runs `git status --porcelain` and hashes it, 50 files",
      ...await leastDeno(small),
      baselineCommand: "the bash recipe, as row 1 (`deno run` of a file that starts " +
        "`git status --porcelain` at once and hashes its output)",
      target: { kind: "none" },
    });
  } finally {
    await Deno.remove(small, { recursive: true });
  }

  progress("building a repository of 100,000 files…");
  const big = await bigRepo(100_000);
  try {
    const prompt = await handshakes(big, ["wrap"]);
    const b = await alternate(7, () => verifies(big, prompt), () => recipe(big));
    rows.push({
      name: `\`verify\` (${formNote()}), 100,000 files`,
      ...b,
      baselineCommand: "the bash recipe, as row 1",
      target: { kind: "ratio", max: 1.2 },
      git: await shim.count(() => verifies(big, prompt, shim.env)),
    });
    const empty = join(big, "..", `empty-${crypto.randomUUID()}.js`);
    await Deno.writeTextFile(empty, "");
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) {
      starts.push(await wall(() => run(Deno.execPath(), ["run", "--no-config", empty])));
    }
    const startup = median(starts);
    await Deno.remove(empty);
    const st = await alternate(5, () => status(big), () => recipe(big));
    rows.push({
      name: "floor: Deno start + `git status --porcelain`, 100,000 files",
      tether: startup + st.tether,
      baseline: st.baseline,
      baselineCommand: "the bash recipe, as row 1 (the floor is `deno run` of an empty file plus " +
        "`git status --porcelain` alone)",
      target: { kind: "none" },
    });
    rows.push({
      name:
        "floor: a Deno program that only runs `git status --porcelain` and hashes it, 100,000 files",
      ...await leastDeno(big),
      baselineCommand: "the bash recipe, as row 1",
      target: { kind: "none" },
    });
    rows.push(...await benchExact(big, shim));
  } finally {
    await Deno.remove(big, { recursive: true });
  }
  return rows;
}

/**
 * Exact mode beside v1 on the 100,000-file tree, against `git status --porcelain`: the
 * first exact capture hashes every file into the worktree's private index (cold); later
 * ones read only what changed since, as git status does (warm).
 */
async function benchExact(big: string, shim: GitShim): Promise<Row[]> {
  const baselineCommand = "`git status --porcelain`";
  const handshake = (args: string[]) => () => handshakes(big, args);
  const cold = await wall(handshake(["--exact"]));
  const prompt = await handshakes(big, ["wrap", "--exact"]);
  const v1 = await alternate(3, handshake([]), () => status(big));
  const exact = await alternate(5, handshake(["--exact"]), () => status(big));
  const verifyExact = await alternate(5, () => verifies(big, prompt), () => status(big));
  const count = (args: string[]) => shim.count(() => handshakes(big, args, shim.env));
  const none = { kind: "none" } as const;
  return [
    {
      name: "`handshake` (v1 block), 100,000 files",
      ...v1,
      baselineCommand,
      target: none,
      git: await count([]),
    },
    {
      name: "`handshake --exact` (v2 block), first capture (cold private index)",
      tether: cold,
      baseline: exact.baseline,
      baselineCommand,
      target: none,
    },
    {
      name: "`handshake --exact` (v2 block), 100,000 files, warm",
      ...exact,
      baselineCommand,
      target: { kind: "ratio", max: 2 },
      git: await count(["--exact"]),
    },
    {
      name: "`verify` on a v2 block, 100,000 files",
      ...verifyExact,
      baselineCommand,
      target: { kind: "ratio", max: 2 },
      git: await shim.count(() => verifies(big, prompt, shim.env)),
    },
  ];
}

const BENCHES = {
  verify: ["verify", benchVerify],
  gate: ["context and gate", benchGate],
  coord: ["coord", benchCoord],
  worktree: ["worktree", benchWorktree],
  claude: ["Claude Code hooks", benchClaude],
} as const;

if (import.meta.main) {
  const started = performance.now();
  let args;
  try {
    args = benchArgs(Deno.args);
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    Deno.exit(2);
  }
  console.log(
    `tether bench (${Deno.build.os} ${Deno.build.arch}, deno ${Deno.version.deno}; ` +
      `${args.parts.join(", ")}; ${args.source ? "`deno run` of the source" : "installed"})`,
  );
  const shim = await gitShim();
  const uninstall = args.source ? undefined : await installTether();
  const rows: Row[] = [];
  const failed: string[] = [];
  try {
    for (const [title, part] of args.parts.map((p) => BENCHES[p])) {
      const t = performance.now();
      console.log(`${title}…`);
      try {
        rows.push(...await part(shim));
      } catch (error) {
        failed.push(`${title}: ${error instanceof Error ? error.message : String(error)}`);
      }
      progress(`${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    await shim.remove();
    await uninstall?.();
  }
  console.log("");
  for (const line of table(rows)) console.log(line);
  for (const line of failed) console.log(`\nNOT MEASURED, ${line}`);
  console.log(
    `\nMedians of alternating rounds after a warm-up; git processes counted in a separate run ` +
      `through a \`git\` shim first on PATH. Total ${
        ((performance.now() - started) / 1000).toFixed(0)
      } s.`,
  );
}
