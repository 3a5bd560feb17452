/**
 * Reading the child's return: its text as JSON, held to the `SubagentResult` contract
 * (no duplicate keys, a bounded nesting, the schema), each problem a reason of its own.
 * Pure.
 *
 * @module
 */
import { SubagentResult } from "../contract/schemas.ts";
import { MAX_JSON_DEPTH, scanJson } from "./json_keys.ts";

/** Most schema issues listed before the rest are summarised. */
const MAX_ISSUES = 20;

/** A field's path as a reader writes it: `evidence[0].ref`, `(root)` for the value itself. */
function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    const name = String(part);
    const safe = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${safe}`;
  }
  return out || "(root)";
}

/**
 * Parse the child's text into JSON, or say why not.
 *
 * @example A byte-order mark is dropped; an empty text is a problem
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseResultText("\uFEFF{}"), { value: {} });
 * assertEquals("problem" in parseResultText(" "), true);
 * ```
 * @param text The text on stdin.
 * @returns The value, or a one-line reason.
 */
export function parseResultText(text: string): { value: unknown } | { problem: string } {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") {
    return { problem: "Result is empty: expected a SubagentResult JSON document" };
  }
  try {
    return { value: JSON.parse(body) };
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ");
    return { problem: `Result is not JSON: ${detail.slice(0, 160)}` };
  }
}

/**
 * The schema problems of a value, one reason per issue, naming the field path.
 *
 * @example An unknown key and a wrong type
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const reasons = schemaReasons({ ok: "yes", summary: "", files_changed: [], errors: [], evidence: [], x: 1 });
 * assertEquals(reasons.length, 2);
 * assertEquals(reasons[0]!.startsWith("Schema violation at ok:"), true);
 * ```
 * @param value The parsed JSON.
 * @returns Reasons, empty when the value is a valid `SubagentResult`.
 */
export function schemaReasons(value: unknown): string[] {
  const parsed = SubagentResult.safeParse(value);
  if (parsed.success) return [];
  const issues = parsed.error.issues;
  const reasons = issues.slice(0, MAX_ISSUES).map((i) =>
    `Schema violation at ${fieldPath(i.path)}: ${i.message}`
  );
  if (issues.length > MAX_ISSUES) {
    reasons.push(`Schema violation: ${issues.length - MAX_ISSUES} more issues`);
  }
  return reasons;
}

/** The child's return as read: the result when it keeps the contract, else why not. */
export interface ResultRead {
  /** The result, only when `reasons` is empty. */
  result?: SubagentResult;
  /** Why the text is no `SubagentResult`, one sentence each. */
  reasons: string[];
}

/**
 * Read the child's text as a `SubagentResult`: JSON, no key twice in an object, objects
 * and arrays nested at most {@linkcode MAX_JSON_DEPTH} deep, and the schema.
 *
 * @example A duplicate key is a reason, even where the schema would take the value
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const read = readResult('{"ok": true, "ok": false}');
 * assertEquals(read.result, undefined);
 * assertEquals(read.reasons[0], 'Schema violation at (root): duplicate key "ok"');
 * ```
 * @param text The child's text.
 * @returns The result, or the reasons it is none.
 */
export function readResult(text: string): ResultRead {
  const parsed = parseResultText(text);
  if ("problem" in parsed) return { reasons: [parsed.problem] };
  const scan = scanJson(text.replace(/^\uFEFF/, ""));
  const reasons = scan.duplicates.slice(0, MAX_ISSUES).map((d) =>
    `Schema violation at ${fieldPath(d.path)}: duplicate key ${JSON.stringify(d.key)}`
  );
  if (scan.tooDeep) {
    reasons.push(`Schema violation: objects and arrays nest deeper than ${MAX_JSON_DEPTH} levels`);
  } else reasons.push(...schemaReasons(parsed.value));
  return reasons.length === 0
    ? { result: SubagentResult.parse(parsed.value), reasons }
    : { reasons };
}
