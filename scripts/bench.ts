/**
 * `deno task bench`: speed targets, measured as ratios in one run. Not a test: it prints
 * numbers and never fails on them.
 *
 * - `verify` on a 100,000-file repository vs the bash recipe (target ≤ 1.10×)
 * - `verify` on a small repository (target < 50 ms wall)
 * - exact mode (`handshake --exact`, `verify` on a v2 block) beside v1 on the large tree
 * - `gate` and `coord` benches, where those capabilities provide them
 *
 * @module
 */
import { join } from "node:path";
import { bin, git, makeRepo, ROOT, run, tempDir } from "../tests/_helpers.ts";

const RECIPE =
  "git rev-parse HEAD; git rev-parse --abbrev-ref HEAD; pwd; git status --porcelain | sha256sum";

async function wall(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Time the bash recipe and verify alternately; returns medians in ms. */
async function compare(repo: string, prompt: string, rounds: number) {
  const bash: number[] = [];
  const verify: number[] = [];
  for (let i = 0; i < rounds + 1; i++) {
    const b = await wall(() => run("bash", ["-c", RECIPE], { cwd: repo }));
    const v = await wall(async () => {
      const r = await bin("verify", [], { cwd: repo, stdin: prompt });
      if (r.code !== 0) throw new Error(`verify did not match: ${r.stdout}`);
    });
    if (i > 0) { // the first round warms caches
      bash.push(b);
      verify.push(v);
    }
  }
  return { bash: median(bash), verify: median(verify) };
}

async function sequential(n: number, fn: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

async function bigRepo(files: number): Promise<string> {
  const repo = await makeRepo();
  console.log(`  building a repository of ${files.toLocaleString("en")} files…`);
  for (let d = 0; d < files / 1000; d++) {
    const dir = join(repo, "src", `d${d}`);
    await Deno.mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from(
        { length: 1000 },
        (_, f) => Deno.writeTextFile(join(dir, `f${f}.txt`), `${d}/${f}\n`),
      ),
    );
  }
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "many files"]);
  await git(repo, ["status", "--porcelain"]); // refresh the index once, as a user's tree would be
  return repo;
}

async function benchVerify(): Promise<string[]> {
  const lines: string[] = [];
  const small = await makeRepo();
  const smallPrompt = (await bin("handshake", ["wrap"], { cwd: small, stdin: "task" })).stdout;
  const s = await compare(small, smallPrompt, 9);
  lines.push(
    `verify, small repository: ${s.verify.toFixed(1)} ms wall (target < 50 ms: ${
      s.verify < 50 ? "met" : "NOT met"
    }); bash recipe ${s.bash.toFixed(1)} ms`,
  );
  const big = await bigRepo(100_000);
  const bigPrompt = (await bin("handshake", ["wrap"], { cwd: big, stdin: "task" })).stdout;
  const b = await compare(big, bigPrompt, 7);
  const ratio = b.verify / b.bash;
  lines.push(
    `verify, 100,000 files: ${b.verify.toFixed(0)} ms vs bash recipe ${b.bash.toFixed(0)} ms = ${
      ratio.toFixed(2)
    }× (target ≤ 1.10×: ${ratio <= 1.1 ? "met" : "NOT met"})`,
  );
  const status = median(
    await sequential(5, () => wall(() => run("git", ["status", "--porcelain"], { cwd: big }))),
  );
  const empty = join(await tempDir("tether-bench-"), "empty.ts");
  await Deno.writeTextFile(empty, "");
  const startup = median(
    await sequential(5, () => wall(() => run(Deno.execPath(), ["run", empty]))),
  );
  lines.push(
    `  git status --porcelain alone: ${status.toFixed(0)} ms = ${
      (status / b.bash).toFixed(2)
    }× the recipe`,
  );
  lines.push(
    `  floor for any deno run: startup ${startup.toFixed(0)} ms + git status = ${
      ((startup + status) / b.bash).toFixed(2)
    }× the recipe`,
  );
  lines.push(...await benchExact(big, status, b.verify));
  await Deno.remove(big, { recursive: true });
  return lines;
}

/**
 * Exact mode beside v1 on the same tree, as ratios against `git status --porcelain`
 * measured in this run: the first exact capture hashes every file into the private
 * index (cold); later ones reuse its stat data (warm).
 */
async function benchExact(big: string, status: number, verifyV1: number): Promise<string[]> {
  const ratio = (ms: number) => `${ms.toFixed(0)} ms = ${(ms / status).toFixed(2)}×`;
  const cold = await wall(() => bin("handshake", ["--exact"], { cwd: big }));
  const prompt = (await bin("handshake", ["wrap", "--exact"], { cwd: big, stdin: "task" })).stdout;
  const hsV1 = median(await sequential(5, () => wall(() => bin("handshake", [], { cwd: big }))));
  const hsExact = median(
    await sequential(5, () => wall(() => bin("handshake", ["--exact"], { cwd: big }))),
  );
  const verifyExact = median(
    await sequential(5, () =>
      wall(async () => {
        const r = await bin("verify", [], { cwd: big, stdin: prompt });
        if (r.code !== 0) throw new Error(`verify on a v2 block did not match: ${r.stdout}`);
      })),
  );
  return [
    `exact mode, 100,000 files (ratios against git status --porcelain, ${
      status.toFixed(0)
    } ms in this run):`,
    `  handshake (v1 block): ${ratio(hsV1)}`,
    `  handshake --exact (v2 block): ${ratio(hsExact)}; first capture (cold private index) ${
      ratio(cold)
    }`,
    `  verify on a v1 block: ${ratio(verifyV1)}`,
    `  verify on a v2 block: ${ratio(verifyExact)}`,
  ];
}

async function optional(file: string, name: string): Promise<string[]> {
  const path = join(ROOT, "scripts", file);
  try {
    await Deno.stat(path);
  } catch {
    return [`${file}: not present`];
  }
  const mod = await import(new URL(`file://${path}`).href);
  return await mod[name]() as string[];
}

if (import.meta.main) {
  const scratch = await tempDir("tether-bench-");
  console.log(`tether bench (${Deno.build.os} ${Deno.build.arch}, deno ${Deno.version.deno})`);
  for (
    const [title, job] of [
      ["verify", benchVerify],
      ["gate", () => optional("bench_gate.ts", "benchGate")],
      ["coord", () => optional("bench_coord.ts", "benchCoord")],
    ] as const
  ) {
    console.log(`\n== ${title}`);
    for (const line of await job()) console.log(line);
  }
  await Deno.remove(scratch, { recursive: true });
}
