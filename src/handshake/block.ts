/**
 * Build and parse the v1 handshake block: the seed's inline template, byte for byte
 * when built; tolerant of its emitters' layout and strict about meaning when parsed.
 *
 * @module
 */
import {
  FIELD_NAMES,
  type FieldName,
  type Handshake,
  normaliseField,
  validateField,
} from "./fields.ts";

/** The opening sentinel of a v1 block. */
export const OPEN = "<!-- subagent-env-handshake v1 -->";
/** The closing sentinel. */
export const CLOSE = "<!-- /subagent-env-handshake -->";

/**
 * Render a handshake as the seed's inline template: opening sentinel, blank line, six
 * `name: value` lines, blank line, closing sentinel, final newline.
 *
 * @example A block
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const block = buildBlock({
 *   parent_head: "0".repeat(40), parent_branch: "main", parent_cwd: "/repo",
 *   parent_dirty_fingerprint: "e3b0c44298fc", workspace_mode: "shared",
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z",
 * });
 * assertEquals(block.split("\n").slice(0, 3), ["<!-- subagent-env-handshake v1 -->", "", `parent_head: ${"0".repeat(40)}`]);
 * ```
 * @param handshake The six values.
 * @returns The block text, ending in a newline.
 */
export function buildBlock(handshake: Handshake): string {
  const lines = FIELD_NAMES.map((name) => `${name}: ${handshake[name]}`);
  return `${OPEN}\n\n${lines.join("\n")}\n\n${CLOSE}\n`;
}

/** What parsing a prompt found. */
export type ParseResult =
  | { kind: "block"; handshake: Handshake; ignored?: number }
  | { kind: "missing" }
  | { kind: "error"; reason: string; ignored?: number };

// The block format's white space is ASCII: a space or a tab. Nothing else is layout. One
// definition for every block version (the v2 parser imports these).
/** Any handshake sentinel line (after {@linkcode trimBlanks}); group 1 is the version text. */
export const OPEN_ANY = /^<!--[ \t]*subagent-env-handshake(?![A-Za-z0-9_-])(.*?)-->$/;
/** Any closing sentinel line (after {@linkcode trimBlanks}). */
export const CLOSE_ANY = /^<!--[ \t]*\/subagent-env-handshake[ \t]*-->$/;

/**
 * Strip ASCII blanks (space, tab) from both ends: the only white space a block's layout uses.
 *
 * @example A vertical tab is not layout
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(trimBlanks("\t a \t"), "a");
 * assertEquals(trimBlanks("\va\f"), "\va\f");
 * ```
 * @param line The text.
 * @returns The text without leading and trailing spaces and tabs.
 */
export function trimBlanks(line: string): string {
  return line.replace(/^[ \t]+|[ \t]+$/g, "");
}

/**
 * Normalise prompt text: strip a BOM, turn CRLF and lone CR into LF.
 *
 * @param text The prompt.
 * @returns LF-only text without BOM.
 */
export function normalisePrompt(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

/**
 * Find and parse the handshake: the **first** block in a prompt (a dispatcher prepends
 * it). A block that appears later is task content (a quoted template, an older block
 * behind a re-wrap): never read, only counted in `ignored`.
 *
 * Tolerant: a BOM, CRLF line ends, blank lines inside the sentinels or none, indentation,
 * blanks around sentinel lines, the fields in any order (the seed's own helpers agree on
 * names, not on order). Strict: exactly the six fields, each once, by name, each valid. A
 * field line is `name: value`; the value runs to the end of the line, so a value with
 * leading or trailing white space (which a v1 block cannot carry) is an error, never
 * silently trimmed into another value.
 *
 * @example Missing, error, block, and a later block ignored
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseBlock("just a task").kind, "missing");
 * assertEquals(parseBlock("<!-- subagent-env-handshake v1 -->\nparent_head: abc\n<!-- /subagent-env-handshake -->").kind, "error");
 * ```
 * @param prompt The whole dispatch prompt.
 * @returns The handshake, `missing` when no block is present, or `error` with a reason;
 * `ignored` counts the blocks after the first.
 */
export function parseBlock(prompt: string): ParseResult {
  const lines = normalisePrompt(prompt).split("\n");
  const bare = lines.map(trimBlanks);
  const opens: number[] = [];
  for (let i = 0; i < bare.length; i++) {
    if (OPEN_ANY.test(bare[i]!)) opens.push(i);
  }
  if (opens.length === 0) {
    return bare.some((l) => CLOSE_ANY.test(l))
      ? { kind: "error", reason: "closing sentinel without an opening sentinel" }
      : { kind: "missing" };
  }
  const start = opens[0]!; // tether:guard f6-first-block
  const end = bare.findIndex((l, i) => i > start && CLOSE_ANY.test(l));
  const ignored = opens.filter((i) => end >= 0 && i > end).length;
  const result = parseFirst(lines, bare, start, end);
  return ignored > 0 ? { ...result, ignored } : result;
}

function parseFirst(
  lines: readonly string[],
  bare: readonly string[],
  start: number,
  end: number,
): Exclude<ParseResult, { kind: "missing" }> {
  const version = trimBlanks(OPEN_ANY.exec(bare[start]!)![1]!);
  if (version !== "v1") {
    return { kind: "error", reason: `unsupported handshake version ${JSON.stringify(version)}` };
  }
  if (end < 0) return { kind: "error", reason: "opening sentinel without a closing sentinel" };
  const body: string[] = [];
  for (let i = start + 1; i < end; i++) {
    // Indentation is layout; the rest of the line is the field.
    if (bare[i] !== "") body.push(lines[i]!.replace(/^[ \t]+/, ""));
  }
  // The fields may come in any order (a hand-written block, another generator): the names
  // carry the meaning. Each must be there exactly once, and nothing else may be.
  const values: Partial<Record<FieldName, string>> = {};
  for (const line of body) {
    const colon = line.indexOf(":");
    if (colon < 0) {
      return { kind: "error", reason: `line ${JSON.stringify(line)} is not "name: value"` };
    }
    const name = trimBlanks(line.slice(0, colon));
    if (!(FIELD_NAMES as readonly string[]).includes(name)) {
      return { kind: "error", reason: `unknown field ${JSON.stringify(name)}` };
    }
    const field = name as FieldName;
    if (values[field] !== undefined) { // tether:guard f7-repeated-field
      return { kind: "error", reason: `field "${field}" is repeated` };
    }
    // The blanks after the colon separate; everything after them is the value, to the end
    // of the line (no value of the schema begins with white space).
    const value = line.slice(colon + 1).replace(/^[ \t]+/, ""); // tether:guard f2-no-trim
    const reason = validateField(field, value);
    if (reason) return { kind: "error", reason };
    values[field] = normaliseField(field, value);
  }
  const missing = FIELD_NAMES.find((name) => values[name] === undefined);
  if (missing !== undefined) return { kind: "error", reason: `field "${missing}" is missing` };
  // In schema order, whatever order the block had.
  const handshake = Object.fromEntries(FIELD_NAMES.map((name) => [name, values[name]!]));
  return { kind: "block", handshake: handshake as unknown as Handshake };
}
