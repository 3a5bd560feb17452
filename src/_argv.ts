/**
 * Strict command-line parsing with `node:util`'s `parseArgs` meaning (strict, positionals
 * allowed, tokens), written out here: loading Deno's Node layer for `parseArgs` cost every
 * binary call more start-up than parsing ever did. The complaints carry `parseArgs`'s own
 * text, so the messages each binary derives from them stay what they were.
 *
 * @module
 */

/** One option of a table: `parseArgs`'s `type`, `multiple` and `short`. */
export interface ArgOption {
  type: "string" | "boolean";
  multiple?: boolean | undefined;
  short?: string | undefined;
}

/** A parsed option, as `parseArgs`'s tokens give it (only what tether reads). */
export interface OptionToken {
  kind: "option";
  name: string;
  value: string | undefined;
}

/** What {@linkcode parseStrict} returns. */
export interface ParsedArgs {
  /** Option values by long name: a string, `true`, or an array for a `multiple` option. */
  values: Record<string, string | boolean | Array<string | boolean>>;
  positionals: string[];
  tokens: OptionToken[];
}

/** The long name of the option whose short name is `short`, or `short` itself when none. */
function longFor(short: string, options: Record<string, ArgOption>): string {
  for (const [name, option] of Object.entries(options)) if (option.short === short) return name;
  return short;
}

function typeOf(name: string, options: Record<string, ArgOption>): string | undefined {
  return Object.hasOwn(options, name) ? options[name]!.type : undefined;
}

/**
 * Check one option as `parseArgs` does in strict mode, then store its value.
 *
 * @throws {Error} with `parseArgs`'s message for an unknown option, a missing or surplus
 * value, or a value that looks like an option and was not given inline.
 */
function take(
  out: ParsedArgs,
  options: Record<string, ArgOption>,
  name: string,
  rawName: string,
  value: string | undefined,
  inline: boolean,
): void {
  if (!Object.hasOwn(options, name)) {
    throw new Error(
      `Unknown option '${rawName}'. To specify a positional argument starting with a '-', ` +
        `place it at the end of the command after '--', as in '-- ${JSON.stringify(rawName)}`,
    );
  }
  const option = options[name]!;
  const both = `${option.short ? `-${option.short}, ` : ""}--${name}`;
  if (option.type === "string" && value === undefined) {
    throw new Error(`Option '${both} <value>' argument missing`);
  }
  if (option.type === "boolean" && value !== undefined) {
    throw new Error(`Option '${both}' does not take an argument`);
  }
  if (!inline && value !== undefined && value.length > 1 && value.startsWith("-")) {
    const example = rawName.startsWith("--")
      ? `'${rawName}=-XYZ'`
      : `'--${name}=-XYZ' or '${rawName}-XYZ'`;
    throw new Error(
      `Option '${rawName}' argument is ambiguous.\n` +
        `Did you forget to specify the option argument for '${rawName}'?\n` +
        `To specify an option argument starting with a dash use ${example}.`,
    );
  }
  const stored = value ?? true;
  if (option.multiple) {
    const list = out.values[name];
    if (Array.isArray(list)) list.push(stored);
    else out.values[name] = [stored];
  } else out.values[name] = stored;
  out.tokens.push({ kind: "option", name, value });
}

/**
 * Parse arguments as `parseArgs({ args, options, strict: true, allowPositionals: true })`
 * does: `--name value`, `--name=value`, `-x`, short groups `-xy`, `--` ending the options.
 *
 * @example A repeated `multiple` option collects its values
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const { values, positionals } = parseStrict(["send", "--to", "W1", "--to=W2"], {
 *   to: { type: "string", multiple: true },
 * });
 * assertEquals([values.to, positionals], [["W1", "W2"], ["send"]]);
 * ```
 * @param args The command-line arguments.
 * @param options The option table.
 * @returns Values, positionals and the option tokens in order.
 * @throws {Error} with `parseArgs`'s message for anything strict mode refuses.
 */
export function parseStrict(args: readonly string[], options: Record<string, ArgOption>) {
  const out: ParsedArgs = { values: Object.create(null), positionals: [], tokens: [] };
  const rest = [...args];
  while (rest.length > 0) {
    const arg = rest.shift()!;
    const next = rest[0];
    if (arg === "--") {
      out.positionals.push(...rest);
      break;
    }
    if (arg.length < 2 || !arg.startsWith("-")) {
      out.positionals.push(arg); // a name, or a lone "-"
    } else if (!arg.startsWith("--")) {
      const first = longFor(arg[1]!, options);
      if (arg.length === 2) {
        const value = typeOf(first, options) === "string" && next !== undefined
          ? rest.shift()
          : undefined;
        take(out, options, first, arg, value, false);
      } else if (typeOf(first, options) === "string") {
        take(out, options, first, `-${arg[1]}`, arg.slice(2), true); // -fVALUE
      } else {
        // A group -xyz is -x -y -z, up to a short that takes a value: -xfVALUE is -x -fVALUE.
        const expanded: string[] = [];
        for (let i = 1; i < arg.length; i++) {
          const short = arg[i]!;
          if (typeOf(longFor(short, options), options) !== "string" || i === arg.length - 1) {
            expanded.push(`-${short}`);
          } else {
            expanded.push(`-${arg.slice(i)}`);
            break;
          }
        }
        rest.unshift(...expanded);
      }
    } else if (arg.length > 2 && arg.includes("=", 3)) {
      const at = arg.indexOf("=");
      const name = arg.slice(2, at);
      take(out, options, name, `--${name}`, arg.slice(at + 1), true);
    } else {
      const name = arg.slice(2);
      const value = typeOf(name, options) === "string" && next !== undefined
        ? rest.shift()
        : undefined;
      take(out, options, name, arg, value, false);
    }
  }
  return out;
}
