/**
 * The Claude Code test harness itself (`tests/_claude/`): the install is shared and never
 * half-used, an offline machine skips with one line, and a run that hangs is killed with
 * everything it started.
 *
 * Observed: in `-p` mode the CLI also waits for a `Bash` command started with
 * `run_in_background: true` before it exits (as for a background agent), so a script that
 * leaves one running ends only by the timeout.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { run, tempDir } from "./_helpers.ts";
import {
  CLAUDE_CODE_VERSION,
  claudeBinary,
  runClaude,
  runProcesses,
  toolResults,
} from "./_claude/mod.ts";

const binary = await claudeBinary();
const skip = typeof binary === "string" ? undefined : binary.skip;
if (skip !== undefined) console.log(`skipping Claude Code tests: ${skip}`);

/** `claudeBinary()` in a fresh Deno process with this environment, as JSON. */
async function binaryIn(env: Record<string, string>): Promise<string | { skip: string }> {
  const url = new URL("./_claude/cli.ts", import.meta.url).href;
  const code = `import { claudeBinary } from ${JSON.stringify(url)};\n` +
    "console.log(JSON.stringify(await claudeBinary()));";
  const r = await run(Deno.execPath(), ["eval", "--no-config", code], { env });
  if (r.code !== 0) throw new Error(`deno eval failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

Deno.test("claudeBinary skips with one line when npm cannot be run", async () => {
  const cache = await tempDir("tether-cc-cache-");
  const got = await binaryIn({ XDG_CACHE_HOME: cache, PATH: cache });
  assertOk(typeof got !== "string", `installed without npm: ${got}`);
  assertOk(/^npm is not available: /.test(got.skip) && !got.skip.includes("\n"), got.skip);
  const parent = join(cache, "tether");
  assertEquals([...Deno.readDirSync(parent)].map((e) => e.name), []);
  await Deno.remove(cache, { recursive: true });
});

// Two fresh installs write and remove about 740 MB: the race is checked where asked
// (TETHER_INSTALL_RACE=1), not in every run of the suite.
const raceAsked = Deno.env.get("TETHER_INSTALL_RACE") === "1";

Deno.test({
  name: "two processes installing Claude Code at once both use one finished install",
  ignore: skip !== undefined || !raceAsked,
}, async () => {
  const cache = await tempDir("tether-cc-cache-");
  try {
    const started = performance.now();
    const [a, b] = await Promise.all([
      binaryIn({ XDG_CACHE_HOME: cache }),
      binaryIn({ XDG_CACHE_HOME: cache }),
    ]);
    console.log(`two racing installs took ${Math.round(performance.now() - started)} ms`);
    const dir = join(cache, "tether", `claude-code-${CLAUDE_CODE_VERSION}`);
    assertEquals(a, join(dir, "node_modules/@anthropic-ai/claude-code-linux-x64/claude"));
    assertEquals(b, a);
    const left = [...Deno.readDirSync(join(cache, "tether"))].map((e) => e.name);
    assertEquals(left, [`claude-code-${CLAUDE_CODE_VERSION}`], "a staging dir was left");
    const version = await run(a as string, ["--version"]);
    assertEquals(version.stdout.trim(), `${CLAUDE_CODE_VERSION} (Claude Code)`);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test({
  name: "runClaude kills a run past its timeout, with its background shell, and removes its home",
  ignore: skip !== undefined,
}, async () => {
  const cwd = await tempDir("tether-cc-project-");
  try {
    const result = await runClaude({
      cwd,
      prompt: "HANG",
      timeoutMs: 5_000,
      script: ({ prompt, step }) => {
        if (prompt !== "HANG") return undefined;
        const bash = (command: string, extra: Record<string, unknown> = {}) => ({
          tools: [{ name: "Bash", input: { command, description: "step", ...extra } }],
        });
        if (step === 0) return bash("echo $HOME");
        if (step === 1) return bash("sleep 300", { run_in_background: true });
        return { text: "Waiting." };
      },
    });
    console.log(`timed-out run took ${result.durationMs} ms`);
    assertEquals(result.timedOut, true);
    assertOk(result.code !== 0, "a killed run exited 0");
    assertEquals(await runProcesses(result.marker), []);
    const asked = result.requests.find((r) => r.turn?.step === 1);
    const home = (toolResults(asked?.body ?? {})[0] ?? "").trim();
    assertOk(home.endsWith("/home"), `no HOME reported: ${home}`);
    const runDir = join(home, "..");
    assertEquals(await Deno.stat(runDir).then(() => "exists", () => "gone"), "gone");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
