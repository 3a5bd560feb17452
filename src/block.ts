/**
 * Build and parse the v1 handshake block: the seed's inline template, byte for byte
 * when built; tolerant of its emitters' layout and strict about meaning when parsed.
 *
 * @module
 */
import { FIELD_NAMES, type FieldName, type Handshake, validateField } from "./fields.ts";

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
 * import { assertEquals } from "./_assert.ts";
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
  | { kind: "block"; handshake: Handshake }
  | { kind: "missing" }
  | { kind: "error"; reason: string };

const OPEN_ANY = /^<!--\s*subagent-env-handshake\b(.*?)-->$/;
const CLOSE_ANY = /^<!--\s*\/subagent-env-handshake\s*-->$/;

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
 * Find and parse the one v1 block in a prompt.
 *
 * Tolerant: a BOM, CRLF line ends, blank lines inside the sentinels or none, whitespace
 * around lines, the block anywhere in the prompt. Strict: exactly the six fields, by name,
 * in schema order, each valid; one block only.
 *
 * @example Missing, error and block
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(parseBlock("just a task").kind, "missing");
 * assertEquals(parseBlock("<!-- subagent-env-handshake v1 -->\nparent_head: abc\n<!-- /subagent-env-handshake -->").kind, "error");
 * ```
 * @param prompt The whole dispatch prompt.
 * @returns The handshake, `missing` when no block is present, or `error` with a reason.
 */
export function parseBlock(prompt: string): ParseResult {
  const lines = normalisePrompt(prompt).split("\n").map((l) => l.trim());
  const opens: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (OPEN_ANY.test(lines[i]!)) opens.push(i);
  }
  if (opens.length === 0) {
    return lines.some((l) => CLOSE_ANY.test(l))
      ? { kind: "error", reason: "closing sentinel without an opening sentinel" }
      : { kind: "missing" };
  }
  if (opens.length > 1) {
    return { kind: "error", reason: `${opens.length} handshake blocks found; expected one` };
  }
  const start = opens[0]!;
  const version = OPEN_ANY.exec(lines[start]!)![1]!.trim();
  if (version !== "v1") {
    return { kind: "error", reason: `unsupported handshake version ${JSON.stringify(version)}` };
  }
  const end = lines.findIndex((l, i) => i > start && CLOSE_ANY.test(l));
  if (end < 0) return { kind: "error", reason: "opening sentinel without a closing sentinel" };
  const body = lines.slice(start + 1, end).filter((l) => l !== "");
  const values = {} as Record<FieldName, string>;
  for (let i = 0; i < Math.max(body.length, FIELD_NAMES.length); i++) {
    const line = body[i];
    const expected = FIELD_NAMES[i];
    if (line === undefined) return { kind: "error", reason: `field "${expected}" is missing` };
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon).trim();
    if (expected === undefined) {
      return { kind: "error", reason: `unexpected extra line ${JSON.stringify(line)}` };
    }
    if (colon < 0) {
      return { kind: "error", reason: `line ${JSON.stringify(line)} is not "name: value"` };
    }
    if (name !== expected) {
      const known = (FIELD_NAMES as readonly string[]).includes(name);
      return {
        kind: "error",
        reason: known
          ? `field "${name}" is out of order or repeated; expected "${expected}"`
          : `unknown field "${name}"; expected "${expected}"`,
      };
    }
    const value = line.slice(colon + 1).trim();
    const reason = validateField(expected, value);
    if (reason) return { kind: "error", reason };
    values[expected] = value;
  }
  return { kind: "block", handshake: values as Handshake };
}
