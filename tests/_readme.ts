/**
 * Test utilities for running the documented examples as written: find the blocks (in the
 * README, and in docs/reference.md for exact mode and the Step 0 snippet), put the commands
 * on PATH (small wrappers that run `deno run <exact flags> <entry>.ts`), and run bash or
 * PowerShell in a fresh repository.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { makeRepo, ROOT, type Run, run, tempDir } from "./_helpers.ts";

/** An example block of the README. */
export interface Example {
  /** `bash` or `powershell`. */
  lang: string;
  /** The block's text, marker line included. */
  code: string;
}

/** The README's text. */
export const README: string = await Deno.readTextFile(join(ROOT, "README.md"));

/** The reference's text (docs/reference.md): exact mode's example and the Step 0 snippet. */
export const REFERENCE: string = await Deno.readTextFile(join(ROOT, "docs", "reference.md"));

/**
 * The blocks whose first line is `# readme-test: <name>`, by name.
 *
 * @param text The README, or a document under docs/.
 * @returns Name → block.
 */
export function markedExamples(text: string): Map<string, Example> {
  const found = new Map<string, Example>();
  const fence = /^```(bash|powershell)\n# readme-test: (\S+)\n([\s\S]*?)^```$/gm;
  for (const m of text.matchAll(fence)) {
    if (found.has(m[2]!)) throw new Error(`two examples named ${m[2]}`);
    found.set(m[2]!, { lang: m[1]!, code: `# readme-test: ${m[2]}\n${m[3]}` });
  }
  return found;
}

/**
 * The shell commands inside the Step 0 snippet (the markdown block an agent definition
 * gets), by language.
 *
 * @param text The document holding the snippet (docs/reference.md).
 * @returns `bash` and `powershell` → the command text.
 */
export function stepZeroCommands(text: string): Map<string, string> {
  const snippet = /^````markdown\n(## Step 0[\s\S]*?)^````$/m.exec(text)?.[1];
  if (!snippet) throw new Error("no Step 0 snippet in the text");
  const out = new Map<string, string>();
  for (const m of snippet.matchAll(/^```(bash|powershell)\n([\s\S]*?)^```$/gm)) {
    out.set(m[1]!, m[2]!);
  }
  return out;
}

/** The placeholder line the Step 0 commands ask the agent to replace with its block. */
export const BLOCK_PLACEHOLDER = "{the handshake block from the top of this prompt}";

/**
 * Put the agent's block in place of the placeholder line, as the snippet tells the agent.
 *
 * @param command The snippet's command.
 * @param block The handshake block (ending in a newline).
 * @returns The command the agent runs.
 * @throws {Error} when the placeholder is not there exactly once.
 */
export function pasteBlock(command: string, block: string): string {
  const parts = command.split(`${BLOCK_PLACEHOLDER}\n`);
  if (parts.length !== 2) throw new Error(`placeholder found ${parts.length - 1} times`);
  return parts.join(block);
}

/** A place to run examples: a repository, the commands on PATH, a private TMPDIR. */
export interface Site {
  root: string;
  repo: string;
  bin: string;
  tmp: string;
  env: Record<string, string>;
}

/**
 * Build a site: `root/repo` (with `src/app.ts`), `root/bin` with the commands and a
 * stand-in `run-agent` that runs Step 0 on the prompt file it is given, `root/tmp`.
 *
 * @returns The site; remove `root` when done.
 */
export async function makeSite(): Promise<Site> {
  const root = await tempDir("tether-readme-");
  const made = await makeRepo({ files: { "src/app.ts": "export const app = 1;\n" } });
  const repo = join(root, "repo");
  await Deno.rename(made, repo);
  const bin = join(root, "bin");
  const tmp = join(root, "tmp");
  await Deno.mkdir(bin);
  await Deno.mkdir(tmp);
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  for (const name of Object.keys(PERMISSIONS) as BinaryName[]) {
    const argv = [Deno.execPath(), "run", "--quiet", "--no-prompt", ...PERMISSIONS[name]];
    await Deno.writeTextFile(
      join(bin, name),
      `#!/bin/sh\nexec ${argv.map(quote).join(" ")} ${quote(join(ROOT, `${name}.ts`))} "$@"\n`,
      { mode: 0o755 },
    );
  }
  await Deno.writeTextFile(
    join(bin, "run-agent"),
    '#!/bin/sh\n# A stand-in agent runner: Step 0 on the prompt file.\n[ "$1" = --prompt-file ] || exit 2\nexec verify < "$2"\n',
    { mode: 0o755 },
  );
  const env = {
    PATH: `${bin}:${Deno.env.get("PATH") ?? ""}`,
    TMPDIR: tmp,
    NO_COLOR: "1",
    POWERSHELL_TELEMETRY_OPTOUT: "1",
    POWERSHELL_UPDATECHECK: "Off",
  };
  return { root, repo, bin, tmp, env };
}

/**
 * Run a script with bash or pwsh in the site's repository.
 *
 * @param site Where.
 * @param lang `bash` or `powershell`.
 * @param code The script.
 * @param pwsh The pwsh executable (for PowerShell).
 * @returns Exit code and output.
 */
export async function runScript(
  site: Site,
  lang: string,
  code: string,
  pwsh?: string,
): Promise<Run> {
  const file = join(site.root, lang === "bash" ? "script.sh" : "script.ps1");
  await Deno.writeTextFile(file, code);
  try {
    return lang === "bash"
      ? await run("bash", [file], { cwd: site.repo, env: site.env })
      : await run(pwsh!, ["-NoProfile", "-NonInteractive", "-File", file], {
        cwd: site.repo,
        env: site.env,
      });
  } finally {
    await Deno.remove(file);
  }
}

/**
 * Find PowerShell 7: `$PWSH`, `pwsh` on PATH, or the .NET global tool in `~/.dotnet/tools`.
 *
 * @returns The executable, or undefined when there is none.
 */
export async function findPwsh(): Promise<string | undefined> {
  const home = Deno.env.get("HOME") ?? "";
  const candidates = [Deno.env.get("PWSH"), "pwsh", join(home, ".dotnet", "tools", "pwsh")];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const r = await run(candidate, ["-NoProfile", "-NonInteractive", "-Command", "exit 0"]);
      if (r.code === 0) return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}
