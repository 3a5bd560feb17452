/**
 * The pieces the real-CLI loop tests share: `tether`, `verify`, `handshake` and `gate` on
 * the CLI's PATH as the source run under each binary's exact flags, the README's settings
 * block as written, and scripted children that run their Step 0 from the context tether gave
 * them and end with a SubagentResult.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { ROOT, tempDir } from "./_helpers.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { README } from "./_readme.ts";
import type { Reply, Turn } from "./_claude/mod.ts";

/** The README's Claude Code settings block, parsed. */
export function readmeSettings(): unknown {
  const json = /^```json\n(\{\n {2}"hooks"[\s\S]*?)^```$/m.exec(README)?.[1];
  if (json === undefined) throw new Error("no settings.json block in the README");
  return JSON.parse(json);
}

/**
 * A directory holding the commands a user installs, each the source run under its exact
 * flags. The CLI runs its hooks and tools with a fresh HOME, so Deno's cache is named.
 *
 * @returns The directory (removed with the test module's temp dirs).
 */
export async function commandsDir(): Promise<string> {
  const dir = await tempDir("tether-cli-bin-");
  const info = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" });
  const denoDir = JSON.parse(new TextDecoder().decode((await info.output()).stdout)).denoDir;
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  for (const name of Object.keys(PERMISSIONS) as BinaryName[]) {
    const argv = [Deno.execPath(), "run", "--quiet", "--no-prompt", ...PERMISSIONS[name]];
    await Deno.writeTextFile(
      join(dir, name),
      `#!/bin/sh\nDENO_DIR=${quote(denoDir)} NO_COLOR=1 exec ${argv.map(quote).join(" ")} ${
        quote(join(ROOT, `${name}.ts`))
      } "$@"\n`,
      { mode: 0o755 },
    );
  }
  return dir;
}

/** A child's SubagentResult claiming `files`, each with file evidence. */
export function resultJson(...files: string[]): string {
  return JSON.stringify({
    ok: true,
    summary: `changed ${files.join(", ")}`,
    files_changed: files,
    errors: [],
    evidence: files.map((ref) => ({ kind: "file", ref, ok: true })),
  });
}

/** The Step 0 command tether's SubagentStart context gave a child, if any. */
export function step0Of(turn: Turn): string | undefined {
  return turn.text.split("\n").find((l) => l.startsWith("verify --head "));
}

/**
 * A scripted isolated child: Step 0 first (the one command its context names), then its
 * Bash commands one per turn, then its final message; each later turn (a send-back) ends the
 * same way. `before(step)` runs before each answer (the parent editing meanwhile, say).
 *
 * @param commands The child's work.
 * @param final Its final message.
 * @param before What happens before each answer.
 * @returns The child's part of a script.
 */
export function isolatedChild(
  commands: string[],
  final: string,
  before: (step: number) => Promise<void> = () => Promise.resolve(),
): (turn: Turn) => Promise<Reply> {
  return async (turn) => {
    await before(turn.step);
    if (turn.step === 0) {
      const command = step0Of(turn);
      if (command === undefined) return { text: "No verify command in my context." };
      return { tools: [{ name: "Bash", input: { command, description: "Step 0" } }] };
    }
    const command = commands[turn.step - 1];
    if (command !== undefined) {
      return { tools: [{ name: "Bash", input: { command, description: "Work" } }] };
    }
    return { text: final };
  };
}
