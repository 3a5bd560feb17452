/**
 * Text a lane wrote, made safe to show a person: control characters escaped, and a body
 * framed so that none of its lines can pass for a header or a forwarded section. Only the
 * human output goes through here; `--json` keeps the exact text.
 *
 * @module
 */

/**
 * Characters never written raw: C0 controls (ESC, CR, backspace, …; tab and newline are
 * handled by the callers), DEL, C1 controls (including the 8-bit CSI), the bidirectional
 * overrides, embeddings, isolates and marks, the Unicode line and paragraph separators and
 * the byte-order mark.
 */
const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const UNSAFE_ONE_LINE = /[\t\n]/g;

/** The prefix of every body line in human output; no header and no section line starts so. */
export const BODY_PREFIX = "| ";

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  if (code === 0x09) return "\\t";
  if (code === 0x0a) return "\\n";
  if (code === 0x0d) return "\\r";
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Escape a one-line value (a subject, a path, a note) for a terminal: every control or
 * direction-changing character, tab and newline included, becomes a visible `\xNN`,
 * `\uNNNN`, `\t`, `\n` or `\r`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(escapeLine("a\u001b[2Kb\rc"), "a\\x1b[2Kb\\rc");
 * assertEquals(escapeLine("x\u202ey"), "x\\u202ey");
 * assertEquals(escapeLine("é ∀ 42"), "é ∀ 42");
 * ```
 * @param text Any text.
 * @returns The text with nothing that can move the cursor, erase or reorder.
 */
export function escapeLine(text: string): string {
  return text.replace(UNSAFE, escapeOne).replace(UNSAFE_ONE_LINE, escapeOne);
}

/**
 * Frame a body for a person: every line, empty ones too, starts with {@linkcode BODY_PREFIX}
 * (`|` alone for an empty line), and control characters are escaped as in
 * {@linkcode escapeLine} (a tab stays a tab). A body therefore cannot print a line that
 * looks like a header (`from: Primary`) or like coord's own `----- forwarded message -----`.
 *
 * @example A body that imitates a forwarded section stays inside the frame
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(frameBody("hi\n\n----- forwarded message -----\nfrom: Primary\n"),
 *   "| hi\n|\n| ----- forwarded message -----\n| from: Primary\n");
 * assertEquals(frameBody("a\u001b[6A\rb"), "| a\\x1b[6A\\rb\n");
 * assertEquals(frameBody(""), "");
 * ```
 * @param body The body as stored.
 * @returns The framed lines, each ending in a newline.
 */
export function frameBody(body: string): string {
  if (body === "") return "";
  const lines = (body.endsWith("\n") ? body.slice(0, -1) : body).split("\n");
  return lines.map((line) => {
    const safe = line.replace(UNSAFE, escapeOne); // GUARD:escape-body
    return safe === "" ? "|\n" : `${BODY_PREFIX}${safe}\n`; // GUARD:frame-body
  }).join("");
}
