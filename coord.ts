/**
 * `coord`: durable, blind-aware, SHA-pinned messages between the worktrees of one git
 * repository. Parses the command line, runs the core, maps typed errors to exit codes:
 * 0 ok, 2 usage, 3 git/policy/store error, 4 refused or not found, 5 `wait` timed out.
 *
 * Runs with `--allow-run=git --allow-read --allow-write` (the store lives in the git
 * common dir; everything else is learned through git).
 *
 * @module
 */
import { exitCodeFor, UsageError } from "./src/coord/errors.ts";
import { MAX_BODY_BYTES, runCoord } from "./src/coord/cli.ts";
import { hintLine, InputError, readStdin } from "./src/cli.ts";

async function readBody(): Promise<string> {
  if (Deno.stdin.isTerminal()) return "";
  let bytes: Uint8Array;
  try {
    bytes = await readStdin(MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof InputError) {
      throw new UsageError(`Message body is larger than ${MAX_BODY_BYTES} bytes`);
    }
    throw error;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError("Message body is not UTF-8");
  }
}

/**
 * Run coord and return its exit code.
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 */
export async function main(args: string[]): Promise<number> {
  const encoder = new TextEncoder();
  let code = 0;
  try {
    const output = await runCoord(args, { cwd: Deno.cwd(), readBody });
    await writeAll(Deno.stdout, encoder.encode(output.stdout));
    for (const line of output.stderr) console.error(line);
  } catch (error) {
    const mapped = exitCodeFor(error);
    console.error(mapped.line);
    if (mapped.hint) console.error(hintLine("coord"));
    code = mapped.code;
  }
  return code;
}

async function writeAll(file: typeof Deno.stdout, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await file.write(bytes.subarray(written));
}

if (import.meta.main) Deno.exit(await main(Deno.args));
