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
 * Rows: `verify` (small repository, 100,000 files, exact mode); `handshake wrap --context`
 * and `gate --since` on 10,000 untracked or changed files (`bench_gate.ts`); `coord inbox`,
 * `coord status` and `coord wait` over 10,000 messages (`bench_coord.ts`); spawning 8
 * worktree children of 1,000 dirty files, verify and land in one (`bench_worktree.ts`).
 *
 * @module
 */
import { join } from "node:path";
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
  const r = await tether("verify", [], { cwd: repo, stdin: prompt, env }, form);
  if (r.code !== 0) throw new Error(`verify did not match: ${r.stdout}${r.stderr}`);
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

async function benchVerify(shim: GitShim): Promise<Row[]> {
  const rows: Row[] = [];
  const small = await makeRepo();
  const smallPrompt = (await tether("handshake", ["wrap"], { cwd: small, stdin: "task" })).stdout;
  const s = await alternate(9, () => verifies(small, smallPrompt), () => recipe(small));
  rows.push({
    name: `\`verify\` (${formNote()}), small repository`,
    ...s,
    baselineCommand: `the bash recipe \`${RECIPE}\``,
    target: { kind: "wall", maxMs: 50 },
    git: await shim.count(() => verifies(small, smallPrompt, shim.env)),
  });
  if (formNote() === "installed") {
    const source = await alternate(
      9,
      () => verifies(small, smallPrompt, {}, "source"),
      () => recipe(small),
    );
    rows.push({
      name: "`verify` (`deno run` of the source), small repository",
      ...source,
      baselineCommand: "the bash recipe, as row 1",
      target: { kind: "none" },
    });
  }
  await Deno.remove(small, { recursive: true });

  progress("building a repository of 100,000 files…");
  const big = await bigRepo(100_000);
  try {
    const prompt = (await tether("handshake", ["wrap"], { cwd: big, stdin: "task" })).stdout;
    const b = await alternate(7, () => verifies(big, prompt), () => recipe(big));
    rows.push({
      name: `\`verify\` (${formNote()}), 100,000 files`,
      ...b,
      baselineCommand: "the bash recipe, as row 1",
      target: { kind: "ratio", max: 1.1 },
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
    // What no Deno program that runs git status can beat: it also pays for starting a
    // process from Deno (the first one costs several ms) and for hashing the output.
    const least = join(big, "..", `least-${crypto.randomUUID()}.js`);
    await Deno.writeTextFile(
      least,
      'const o = await new Deno.Command("git", { args: ["status", "--porcelain"], ' +
        'stdout: "piped", stderr: "piped" }).output();\n' +
        'await crypto.subtle.digest("SHA-256", o.stdout);\n',
    );
    try {
      const floor = await alternate(
        5,
        () => run(Deno.execPath(), ["run", "--no-config", "--allow-run=git", least], { cwd: big }),
        () => recipe(big),
      );
      rows.push({
        name: "floor: a Deno program that only runs `git status --porcelain` and hashes it",
        ...floor,
        baselineCommand: "the bash recipe, as row 1 (`deno run` of a file that starts " +
          "`git status --porcelain` at once and hashes its output)",
        target: { kind: "none" },
      });
    } finally {
      await Deno.remove(least);
    }
    rows.push(...await benchExact(big, shim));
  } finally {
    await Deno.remove(big, { recursive: true });
  }
  return rows;
}

/**
 * Exact mode beside v1 on the 100,000-file tree, against `git status --porcelain`: the
 * first exact capture hashes every file into the private index (cold); later ones reuse
 * its stat data (warm).
 */
async function benchExact(big: string, shim: GitShim): Promise<Row[]> {
  const baselineCommand = "`git status --porcelain`";
  const handshake = (args: string[]) => () => tether("handshake", args, { cwd: big });
  const cold = await wall(handshake(["--exact"]));
  const prompt =
    (await tether("handshake", ["wrap", "--exact"], { cwd: big, stdin: "task" })).stdout;
  const v1 = await alternate(3, handshake([]), () => status(big));
  const exact = await alternate(3, handshake(["--exact"]), () => status(big));
  const verifyExact = await alternate(3, () => verifies(big, prompt), () => status(big));
  const count = (args: string[]) =>
    shim.count(() => tether("handshake", args, { cwd: big, env: shim.env }));
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
      name: "`handshake --exact` (v2 block), warm",
      ...exact,
      baselineCommand,
      target: none,
      git: await count(["--exact"]),
    },
    {
      name: "`verify` on a v2 block, 100,000 files",
      ...verifyExact,
      baselineCommand,
      target: none,
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
