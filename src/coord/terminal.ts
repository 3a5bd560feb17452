/**
 * Text a lane wrote, made safe to show a person: control characters escaped, and a body
 * framed so that none of its lines can pass for a header or a forwarded section. Only the
 * human output goes through here; `--json` keeps the exact text.
 *
 * The frame holds for the lines a person sees, not only for the lines stored: coord cannot
 * know the terminal's width, so no line it prints from a lane's text is wider than
 * {@linkcode LINE_COLUMNS} display columns (a terminal 80 wide never wraps one). A body
 * line is wrapped under the `| ` prefix ({@linkcode BODY_COLUMNS} columns after it); a long
 * header or report line continues on lines indented by two spaces, as mail headers fold;
 * one-line views (inbox rows) are cut with {@linkcode CUT_MARK}. Width is counted
 * conservatively: a character from U+1100 up counts two columns (wide scripts, emoji,
 * symbols) except general punctuation (U+2000 to U+206F: dashes, quotes, `…`), combining
 * marks and zero-width characters none, a tab up to the next multiple of 8.
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
/** Whether a code point is one {@linkcode UNSAFE} matches (without a regular expression: fast). */
function unsafe(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  if (code < 0x61c) return false;
  return code === 0x61c || code === 0x200e || code === 0x200f || code === 0x2028 ||
    code === 0x2029 || (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) || code === 0xfeff;
}
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200d\u2060-\u2064]$/u;

/** The prefix of every body line in human output; no header and no section line starts so. */
export const BODY_PREFIX = "| ";

/** The widest line, in display columns, that coord prints from a lane's text. */
export const LINE_COLUMNS = 78;

/** Columns of body text on one displayed line, after {@linkcode BODY_PREFIX}. */
export const BODY_COLUMNS: number = LINE_COLUMNS - BODY_PREFIX.length;

/** What a folded header or report line continues with. */
export const CONTINUATION = "  ";

/** What marks text cut in a one-line view. */
export const CUT_MARK = "…";

const TAB_STOP = 8;
/** Printable ASCII only: one column a character, nothing to escape (the common case, fast). */
const PLAIN = /^[\x20-\x7e]*$/;

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
    if (line === "") return "|\n";
    const shown = line.length <= BODY_COLUMNS && PLAIN.test(line)
      ? [line]
      : layout(cells(line, true), BODY_PREFIX.length, BODY_PREFIX.length, LINE_COLUMNS);
    return shown.map((safe) => `${BODY_PREFIX}${safe}\n`).join(""); // GUARD:frame-body
  }).join("");
}

/** One unit of displayed text: a character with its zero-width followers, or an escape. */
interface Cell {
  text: string;
  /** Display columns; -1 for a tab (its width depends on the column). */
  width: number;
  /** A line may be broken after it. */
  space: boolean;
}

/**
 * The display width of one character, counted so that a terminal never shows it wider.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(["a", "é", "\u0301", "—", "漢", "😀"].map(charWidth), [1, 1, 0, 1, 2, 2]);
 * ```
 * @param c One character (a code point).
 * @returns 0, 1 or 2.
 */
export function charWidth(c: string): number {
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x300) return 1;
  if (ZERO_WIDTH.test(c)) return 0;
  if (code >= 0x2000 && code <= 0x206f) return 1; // dashes, quotes, the ellipsis
  return code >= 0x1100 ? 2 : 1;
}

/** Split a raw line into cells, escaping what {@linkcode escapeLine} escapes (tabs kept when asked). */
function cells(line: string, keepTabs: boolean): Cell[] {
  const out: Cell[] = [];
  for (const c of line) {
    if (c === "\t" && keepTabs) {
      out.push({ text: c, width: -1, space: true });
    } else if (c === "\t" || c === "\n" || unsafe(c.codePointAt(0) ?? 0)) { // GUARD:escape-body
      const text = escapeOne(c);
      out.push({ text, width: text.length, space: false });
    } else {
      const width = charWidth(c);
      const last = out.at(-1);
      if (width === 0 && last !== undefined) last.text += c;
      else out.push({ text: c, width, space: c === " " });
    }
  }
  return out;
}

/** The column after a cell drawn at `column` (absolute, the prefix counted). */
function advance(cell: Cell, column: number): number {
  return cell.width < 0 ? (Math.floor(column / TAB_STOP) + 1) * TAB_STOP : column + cell.width;
}

/**
 * Lay cells out in lines that end by column `limit`: the first starts at column `first`,
 * the others at `next`. A line breaks after its last space when it has one (a space at the
 * break itself is not shown), else where the next cell would not fit.
 */
function layout(line: Cell[], first: number, next: number, limit: number): string[] {
  const lines: string[] = [];
  let current: Cell[] = [];
  let column = first;
  let breakAfter = -1;
  const emit = (cut: number) => {
    lines.push(current.slice(0, cut).map((c) => c.text).join(""));
    current = [];
    column = next;
    breakAfter = -1;
  };
  let i = 0;
  while (i < line.length) {
    const cell = line[i]!;
    if (advance(cell, column) > limit && current.length > 0) { // GUARD:wrap-long-line
      if (cell.text === " ") {
        emit(current.length);
        i++;
        continue;
      }
      const cut = breakAfter >= 0 ? breakAfter + 1 : current.length;
      // The cells after the break are laid out again on the next line.
      i -= current.length - cut;
      emit(cut);
      continue;
    }
    current.push(cell);
    column = advance(cell, column);
    if (cell.space) breakAfter = current.length - 1;
    i++;
  }
  lines.push(current.map((c) => c.text).join(""));
  return lines;
}

/**
 * Fold one line of a header or report for a person: control characters escaped as in
 * {@linkcode escapeLine}, and when it is wider than {@linkcode LINE_COLUMNS}, continued on
 * lines that start with {@linkcode CONTINUATION}, so that nothing in it can start a line
 * at column 0.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(foldLine("subject: short"), "subject: short");
 * assertEquals(foldLine("subject: " + "x ".repeat(40)).split("\n").map((l) => l.slice(0, 3)), ["sub", "  x"]);
 * ```
 * @param line The line (already escaped text is left as it is).
 * @returns The displayed lines, joined by newlines (no final newline).
 */
export function foldLine(line: string): string {
  if (line.length <= LINE_COLUMNS && PLAIN.test(line)) return line;
  const [head = "", ...rest] = layout(
    cells(line, false),
    0,
    CONTINUATION.length,
    LINE_COLUMNS,
  );
  return [head, ...rest.map((l) => `${CONTINUATION}${l}`)].join("\n"); // GUARD:fold-continuation
}

/**
 * Cut a line for a one-line view: control characters escaped, and when it is wider than
 * `columns`, cut with {@linkcode CUT_MARK} as its last column.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(cutLine("abcdef", 4), "abc…");
 * assertEquals(cutLine("abcd", 4), "abcd");
 * assertEquals(cutLine("a\u001bb", 10), "a\\x1bb");
 * ```
 * @param line The line.
 * @param columns The widest it may be (default {@linkcode LINE_COLUMNS}).
 * @returns The line, at most `columns` wide.
 */
export function cutLine(line: string, columns: number = LINE_COLUMNS): string {
  const room = columns - charWidth(CUT_MARK);
  let kept = "";
  if (PLAIN.test(line)) {
    if (line.length <= columns) return line;
    kept = line.slice(0, room);
  } else {
    const all = cells(line, false);
    let column = 0;
    for (const cell of all) column = advance(cell, column);
    if (column <= columns) return all.map((c) => c.text).join("");
    column = 0;
    for (const cell of all) {
      const after = advance(cell, column);
      if (after > room) break;
      kept += cell.text;
      column = after;
    }
  }
  return `${kept}${CUT_MARK}`; // GUARD:cut-one-line
}
