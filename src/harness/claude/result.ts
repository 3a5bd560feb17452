/**
 * The SubagentResult a child's answer ends with. A child is told to end its last message
 * with the result as JSON (bare, or in a fenced `json` block); gate judges that text. Pure.
 *
 * @module
 */

/** A last message longer than this is not searched for a result (gate's stdin limit). */
const MAX_MESSAGE = 16 * 1024 * 1024;

/**
 * The JSON object a message ends with, as text, or undefined when it ends with none. The
 * object is the outermost one that closes at the end: its first `{` is the earliest from
 * which the rest parses as one JSON object.
 *
 * @example Bare and fenced
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(trailingResult('Done.\n{"ok": true, "evidence": [{"kind": "file"}]}'),
 *   '{"ok": true, "evidence": [{"kind": "file"}]}');
 * const fence = "\u0060".repeat(3);
 * assertEquals(trailingResult(`Done.\n${fence}json\n{"ok": false}\n${fence}\n`), '{"ok": false}');
 * assertEquals(trailingResult("Done, no JSON."), undefined);
 * ```
 * @param message The child's last message.
 * @returns The result's JSON text, or undefined.
 */
export function trailingResult(message: string): string | undefined {
  if (message.length > MAX_MESSAGE) return undefined;
  let body = message.trimEnd();
  const fence = body.match(/```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/);
  if (fence) body = fence[1]!.trimEnd();
  if (!body.endsWith("}")) return undefined;
  for (let i = body.indexOf("{"); i >= 0; i = body.indexOf("{", i + 1)) {
    const candidate = body.slice(i);
    try {
      const value = JSON.parse(candidate);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return candidate;
    } catch {
      // Not an object from here: try the next opening brace.
    }
  }
  return undefined;
}
