/**
 * What every part of `deno task bench` shares: timing (medians of alternating rounds after
 * a warm-up), the row of the one table, a `git` shim that counts git processes in a
 * separate run (so it never skews a timing), fast fixture writing, and the table itself.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { bin, ROOT, type Run, run, type RunOptions } from "../tests/_helpers.ts";

/**
 * What a row promises: a ratio, a difference, a wall time, at most so many git processes
 * (each of `counts`), or nothing (informative).
 */
export type Target =
  | { kind: "ratio"; max: number; note?: string }
  | { kind: "delta"; maxMs: number }
  | { kind: "wall"; maxMs: number; worst?: number }
  | { kind: "processes"; max: number; counts: number[] }
  | { kind: "none" };

/** One row of the table: tether and its git baseline, measured in the same run. */
export interface Row {
  /** What tether does. */
  name: string;
  /** tether's median, ms. */
  tether: number;
  /** The baseline's median, ms. */
  baseline: number;
  /** The baseline command (the legend prints it). */
  baselineCommand: string;
  target: Target;
  /** Git processes tether starts for this row (counted with the shim), when counted. */
  git?: number | string;
}

/**
 * Wall time of one call.
 *
 * @param fn What to time.
 * @returns Milliseconds.
 */
export async function wall(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * The median (upper middle for an even count).
 *
 * @param xs Values.
 * @returns The median, NaN for none.
 */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/**
 * Time tether and its baseline in alternating rounds (A B, B A, …) after one warm-up round
 * of each, so a load change hits both alike.
 *
 * @param rounds Measured rounds.
 * @param tether One tether run.
 * @param baseline One baseline run.
 * @param between Untimed work after every run (reset a fixture), if any.
 * @returns The medians, ms.
 */
export async function alternate(
  rounds: number,
  tether: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  between: () => Promise<unknown> = () => Promise.resolve(),
): Promise<{ tether: number; baseline: number }> {
  const t: number[] = [];
  const b: number[] = [];
  for (let i = -1; i < rounds; i++) {
    const order = i % 2 === 0 ? [[tether, t], [baseline, b]] as const : [
      [baseline, b],
      [tether, t],
    ] as const;
    for (const [fn, into] of order) {
      const ms = await wall(fn);
      await between();
      if (i >= 0) into.push(ms);
    }
  }
  return { tether: median(t), baseline: median(b) };
}

/** A `git` first on PATH that logs one line per process, then runs the real git. */
export interface GitShim {
  /** Environment that puts the shim first on PATH. */
  env: Record<string, string>;
  /**
   * Count the git processes started while `fn` runs (it must pass {@linkcode env}).
   *
   * @param fn The shimmed run.
   * @returns How many git processes it started.
   */
  count(fn: () => Promise<unknown>): Promise<number>;
  /** Remove the shim. */
  remove(): Promise<void>;
}

/**
 * Make a git shim in a fresh temp directory.
 *
 * @returns The shim.
 */
export async function gitShim(): Promise<GitShim> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-bench-shim-" }));
  const which = await new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" })
    .output();
  const real = new TextDecoder().decode(which.stdout).trim();
  const log = join(dir, "calls.log");
  await Deno.mkdir(join(dir, "bin"));
  await Deno.writeTextFile(
    join(dir, "bin", "git"),
    `#!/bin/sh\necho x >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(join(dir, "bin", "git"), 0o755);
  return {
    env: { PATH: `${join(dir, "bin")}:${Deno.env.get("PATH") ?? ""}` },
    async count(fn) {
      await Deno.writeTextFile(log, "");
      await fn();
      return (await Deno.readTextFile(log)).split("\n").filter(Boolean).length;
    },
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}

/**
 * Write many files fast: parent directories first, then the files in parallel batches.
 *
 * @param root Base directory.
 * @param paths Relative paths.
 * @param content The content of the file at an index.
 */
export async function writeMany(
  root: string,
  paths: readonly string[],
  content: (i: number) => string,
): Promise<void> {
  const dirs = new Set(paths.map((p) => join(root, p, "..")));
  await Promise.all([...dirs].map((d) => Deno.mkdir(d, { recursive: true })));
  for (let start = 0; start < paths.length; start += 2000) {
    await Promise.all(
      paths.slice(start, start + 2000).map((p, k) =>
        Deno.writeTextFile(join(root, p), content(start + k))
      ),
    );
  }
}

/**
 * Print a short progress line.
 *
 * @param text What is happening.
 */
export function progress(text: string): void {
  console.log(`  ${text}`);
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(value < 100 ? 1 : 0)} ms` : "—";
}

function describe(target: Target): string {
  switch (target.kind) {
    case "ratio":
      return `≤ ${target.max.toFixed(2)}×${target.note === undefined ? "" : ` (${target.note})`}`;
    case "delta":
      return `difference < ${target.maxMs / 1000} s`;
    case "wall":
      return target.worst === undefined
        ? `< ${target.maxMs} ms`
        : `worst < ${target.maxMs} ms (was ${target.worst.toFixed(0)})`;
    case "processes":
      return `≤ ${target.max} git processes each`;
    case "none":
      return "—";
  }
}

/**
 * Whether a row met its target.
 *
 * @param row The row.
 * @returns `yes`, `NO`, or `—` for an informative row.
 */
export function met(row: Row): string {
  const t = row.target;
  const ok = t.kind === "ratio"
    ? row.tether / row.baseline <= t.max
    : t.kind === "delta"
    ? row.tether - row.baseline < t.maxMs
    : t.kind === "wall"
    ? (t.worst ?? row.tether) < t.maxMs
    : t.kind === "processes"
    ? t.counts.every((n) => n <= t.max)
    : undefined;
  return ok === undefined ? "—" : ok ? "yes" : "**NO**";
}

/**
 * The one markdown table, with a legend of baseline commands by row number.
 *
 * @param rows The rows, in order.
 * @returns The table and legend as lines.
 */
export function table(rows: readonly Row[]): string[] {
  const lines = [
    "| # | row | tether | git baseline | ratio | target | met? | git processes |",
    "| -: | --- | -----: | -----------: | ----: | ------ | ---- | ------------: |",
  ];
  rows.forEach((row, i) => {
    const ratio = row.tether / row.baseline;
    lines.push(
      `| ${i + 1} | ${row.name} | ${ms(row.tether)} | ${ms(row.baseline)} | ${
        Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : "—"
      } | ${describe(row.target)} | ${met(row)} | ${row.git ?? "—"} |`,
    );
  });
  lines.push("", "Baselines (the `git baseline` column), by row:");
  rows.forEach((row, i) => lines.push(`${i + 1}. ${row.baselineCommand}`));
  return lines;
}

/** Where `deno task install` put the commands the bench runs, once {@linkcode installTether} ran. */
let installed: string | undefined;

/**
 * Install the four commands as users get them (`deno task install --root <temp>`: each
 * one-file bundle behind its `deno install` launcher), so that {@linkcode tether} runs
 * them as they ship.
 *
 * @returns A function that removes the install again.
 * @throws {Error} when the install fails.
 */
export async function installTether(): Promise<() => Promise<void>> {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "tether-bench-install-" }));
  const r = await run(Deno.execPath(), [
    "run",
    "--allow-run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    join(ROOT, "scripts", "install.ts"),
    "--root",
    root,
  ]);
  if (r.code !== 0) throw new Error(`deno task install failed: ${r.stderr}${r.stdout}`);
  installed = root;
  return async () => {
    installed = undefined;
    await Deno.remove(root, { recursive: true });
  };
}

/** The form {@linkcode tether} runs: the installed command, or `deno run` of the source. */
export type Form = "installed" | "source";

/**
 * Run a tether command: the installed one (after {@linkcode installTether}) unless the
 * source form is asked for, which is `deno run` of the entry point under its exact flags.
 *
 * @param name The binary.
 * @param args Its arguments.
 * @param options cwd, stdin, env (added to the inherited environment).
 * @param form Which form to run.
 * @returns Exit code and output.
 */
export function tether(
  name: BinaryName,
  args: string[],
  options: RunOptions = {},
  form: Form = "installed",
): Promise<Run> {
  if (form === "source" || installed === undefined) return bin(name, args, options);
  return run(join(installed, "bin", name), args, {
    ...options,
    env: { NO_COLOR: "1", ...options.env },
  });
}

/**
 * The argv of a tether command in the form {@linkcode tether} runs (for a process the
 * caller spawns itself).
 *
 * @param name The binary.
 * @param args Its arguments.
 * @returns Program and arguments.
 */
export function tetherArgv(name: BinaryName, args: string[]): [string, string[]] {
  if (installed !== undefined) return [join(installed, "bin", name), args];
  return [
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", ...PERMISSIONS[name], join(ROOT, `${name}.ts`), ...args],
  ];
}

/** What the name of a row says about the form it ran. */
export function formNote(): string {
  return installed === undefined ? "`deno run` of the source" : "installed";
}

/** The parts of `deno task bench`, in the order they run. */
export const PARTS = ["verify", "gate", "coord", "worktree", "claude"] as const;
/** One part of the bench. */
export type Part = typeof PARTS[number];

/**
 * Read the bench's command line: `--only a,b` runs those parts (all by default), and
 * `--source` runs `deno run` of the source instead of the installed commands.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../src/_assert.ts";
 * assertEquals(benchArgs([]), {
 *   parts: ["verify", "gate", "coord", "worktree", "claude"],
 *   source: false,
 * });
 * assertEquals(benchArgs(["--only", "gate,verify"]), { parts: ["verify", "gate"], source: false });
 * assertEquals(benchArgs(["--only=coord", "--source"]), { parts: ["coord"], source: true });
 * let refused = false;
 * try {
 *   benchArgs(["--only", "nope"]);
 * } catch {
 *   refused = true;
 * }
 * assertEquals(refused, true);
 * ```
 * @param args The bench's arguments.
 * @returns The parts to run, in bench order, and the form.
 * @throws {Error} on an unknown part or option.
 */
export function benchArgs(args: readonly string[]): { parts: Part[]; source: boolean } {
  let only: string[] | undefined;
  let source = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--source") source = true;
    else if (arg === "--only" || arg.startsWith("--only=")) {
      const value = arg === "--only" ? args[++i] : arg.slice("--only=".length);
      only = (value ?? "").split(",").map((p) => p.trim()).filter(Boolean);
      const unknown = only.find((p) => !(PARTS as readonly string[]).includes(p));
      if (unknown !== undefined || only.length === 0) {
        throw new Error(`--only takes parts among ${PARTS.join(", ")}: ${JSON.stringify(value)}`);
      }
    } else throw new Error(`unknown option ${JSON.stringify(arg)} (--only PARTS, --source)`);
  }
  return { parts: PARTS.filter((p) => only === undefined || only.includes(p)), source };
}
