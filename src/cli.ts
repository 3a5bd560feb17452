/**
 * What every entry point shares: argument parsing that fails as a usage error, bounded
 * standard input, exact output, and one place that maps errors to exit codes.
 *
 * @module
 */
import type { ParseArgsConfig } from "node:util";
import config from "../deno.json" with { type: "json" };
import { parseStrict } from "./_argv.ts";

/** The toolkit version, from deno.json. */
export const VERSION: string = config.version;

/** The largest standard input any binary reads (16 MiB). */
export const MAX_STDIN_BYTES = 16 * 1024 * 1024;

/** Exit code for a usage error, the same in every binary. */
export const EXIT_USAGE = 2;

/** A mistake in how the binary was called: exit 2 with a hint to `--help`. */
export class UsageError extends Error {
  /**
   * Create a usage error.
   *
   * @param message What is wrong, sentence case, offending value quoted.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Input that is too large or not what the binary reads. */
export class InputError extends Error {
  /**
   * Create an input error.
   *
   * @param message What is wrong.
   */
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** The option table `parseArgs` takes. */
export type Options = NonNullable<ParseArgsConfig["options"]>;

/** What {@linkcode parseCli} returns: typed option values and positionals. */
export type ParsedCli<T extends Options> = ReturnType<
  typeof import("node:util").parseArgs<{
    args: string[];
    options: T;
    allowPositionals: true;
    strict: true;
  }>
>;

/**
 * Parse arguments strictly ({@linkcode parseStrict}); any parser complaint becomes a
 * {@linkcode UsageError}.
 *
 * @param args The command-line arguments.
 * @param options The option table.
 * @returns Values and positionals.
 * @throws {UsageError} on an unknown option, a missing value or a bad type.
 */
export function parseCli<T extends Options>(args: string[], options: T): ParsedCli<T> {
  let parsed;
  try {
    parsed = parseStrict(args, options);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    throw new UsageError(message.split(". ")[0]!.replace(/\.$/, ""));
  }
  // The parser keeps the last of a repeated option: `--worktree a --worktree b` would make
  // one child, silently. A value given twice is refused instead.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || token.value === undefined) continue;
    if (options[token.name]?.multiple) continue;
    if (seen.has(token.name)) {
      throw new UsageError(`Option --${token.name} is given more than once; it takes one value`);
    }
    seen.add(token.name);
  }
  const { values, positionals } = parsed;
  return { values, positionals } as unknown as ParsedCli<T>;
}

/**
 * Read all of standard input, refusing more than a limit.
 *
 * @param limit Maximum bytes.
 * @returns The bytes.
 * @throws {InputError} when the input is larger than the limit.
 */
export async function readStdin(limit = MAX_STDIN_BYTES): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of Deno.stdin.readable) {
    total += chunk.length;
    if (total > limit) throw new InputError(`Standard input is larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/**
 * Decode standard input as UTF-8 text.
 *
 * @param limit Maximum bytes.
 * @returns The text.
 * @throws {InputError} when too large.
 */
export async function readStdinText(limit = MAX_STDIN_BYTES): Promise<string> {
  return new TextDecoder().decode(await readStdin(limit));
}

/**
 * Write text to stdout exactly (no added newline).
 *
 * @param text What to print.
 */
export async function out(text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let written = 0;
  while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
}

/**
 * Write one diagnostic line to stderr.
 *
 * @param text The line, without newline.
 */
export function err(text: string): void {
  const line = text.replace(/\s*\n\s*/g, " ").trimEnd();
  Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));
}

/**
 * The hint line every binary prints after a usage error.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(hintLine("gate"), "hint: run 'gate --help'");
 * ```
 * @param binary The binary's name.
 * @returns The line, without newline.
 */
export function hintLine(binary: string): string {
  return `hint: run '${binary} --help'`;
}

/**
 * Print a usage error the cliffy way (`error: …`, then the hint) and return its exit code.
 *
 * @param binary The binary's name.
 * @param message What is wrong.
 * @returns 2.
 */
export function usageFailure(binary: string, message: string): number {
  err(`error: ${message}`);
  err(hintLine(binary));
  return EXIT_USAGE;
}

/**
 * Whether the first argument asks for help (`-h`, `--help`, `help`) or the version
 * (`-V`, `--version`): the same words in all four binaries.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(helpOrVersion(["help"]), "help");
 * assertEquals(helpOrVersion(["-V"]), "version");
 * assertEquals(helpOrVersion(["wrap", "--help"]), undefined);
 * ```
 * @param args The command-line arguments.
 * @returns `help`, `version`, or undefined.
 */
export function helpOrVersion(args: readonly string[]): "help" | "version" | undefined {
  const first = args[0];
  if (first === "-h" || first === "--help" || first === "help") return "help";
  if (first === "-V" || first === "--version") return "version";
  return undefined;
}

/**
 * Whether an error is Deno refusing a permission the binary was not started with.
 *
 * @param error What was thrown.
 * @returns True for `NotCapable` and `PermissionDenied`.
 */
export function isPermissionError(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable ||
    error instanceof Deno.errors.PermissionDenied;
}

/**
 * Say which Deno permission is missing, naming the flag, in tether's words.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const e = new Deno.errors.NotCapable('Requires read access to "/r", run again with the --allow-read flag');
 * assertEquals(permissionMessage("coord", e), 'coord was started without the Deno permission --allow-read (requires read access to "/r")');
 * ```
 * @param binary The binary's name.
 * @param error A permission error.
 * @returns One line without `error:`.
 */
export function permissionMessage(binary: string, error: unknown): string {
  const text = error instanceof Error ? error.message.split("\n")[0]! : String(error);
  let flag = /--allow-[a-z]+/.exec(text)?.[0] ?? "permission";
  if (flag === "--allow-run" && /"git"/.test(text)) flag = "--allow-run=git";
  const what = /^Requires (.*?)(?:, run again with .*)?$/.exec(text)?.[1];
  return `${binary} was started without the Deno permission ${flag}${
    what ? ` (requires ${what})` : ""
  }`;
}

/**
 * Run an entry point: its result is the exit code; usage errors exit 2; a missing Deno
 * permission is named as one; any other unexpected error prints one line and exits with
 * `internalCode`, never a stack trace.
 *
 * @param binary The binary's name, for messages.
 * @param body The entry point's work, returning an exit code.
 * @param internalCode Exit code for an error nobody mapped.
 */
export async function runMain(
  binary: string,
  body: () => Promise<number>,
  internalCode = 3,
): Promise<never> {
  let code: number;
  try {
    code = await body();
  } catch (error) {
    if (error instanceof UsageError) code = usageFailure(binary, error.message);
    else if (isPermissionError(error)) {
      err(`error: ${permissionMessage(binary, error)}`);
      code = internalCode;
    } else {
      err(`error: ${error instanceof Error ? error.message : String(error)}`);
      code = internalCode;
    }
  }
  Deno.exit(code);
}
