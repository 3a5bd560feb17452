/**
 * The v2 handshake block, table-driven: one ordered list of field names per workspace
 * mode. v2 keeps the six v1 fields, adds `seed` (the commit recording the exact state the
 * child starts from) and, in worktree mode, the fields that name the child's worktree.
 *
 * This is the minimum the worktree mode needs; the shared-mode (exact) side is built
 * beside it and the two are one table when merged.
 *
 * @module
 */
import { FIELD_NAMES as V1_FIELDS, type FieldName, validateField } from "../fields.ts";
import { CLOSE, normalisePrompt } from "../block.ts";

/** The opening sentinel of a v2 block. A v1 verifier finds no v1 block in it. */
export const OPEN_V2 = "<!-- subagent-env-handshake v2 -->";

/** The value the worktree fields take when a harness makes the worktree itself. */
export const HARNESS = "harness";

/** The worktree-mode fields, after `seed`, in this order. */
export const WORKTREE_FIELDS = ["worktree_path", "worktree_branch", "worktree_cwd"] as const;

/** The field lists, by workspace mode: one table. */
export const V2_FIELDS = {
  shared: [...V1_FIELDS, "seed"],
  worktree: [...V1_FIELDS, "seed", ...WORKTREE_FIELDS],
} as const;

/** One v2 field name. */
export type V2FieldName = FieldName | "seed" | typeof WORKTREE_FIELDS[number];

/** A v2 handshake: every field of its mode's list, by name. */
export type V2Handshake = Record<FieldName | "seed", string> & {
  workspace_mode: "shared" | "worktree";
} & Partial<Record<typeof WORKTREE_FIELDS[number], string>>;

const HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Check one v2 field value.
 *
 * @example The worktree fields take a path, a branch name or `harness`
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(validateV2Field("worktree_path", "/tmp/child"), undefined);
 * assertEquals(validateV2Field("worktree_path", "harness"), undefined);
 * assertEquals(validateV2Field("worktree_path", "child"), 'field "worktree_path" is not an absolute path or "harness": "child"');
 * assertEquals(validateV2Field("seed", "abc"), 'field "seed" is not 40 or 64 lowercase hex: "abc"');
 * ```
 * @param name The field.
 * @param value Its text.
 * @returns A reason when invalid, undefined when valid.
 */
export function validateV2Field(name: V2FieldName, value: string): string | undefined {
  switch (name) {
    case "seed":
      return HEX.test(value)
        ? undefined
        : `field "seed" is not 40 or 64 lowercase hex: ${JSON.stringify(value)}`;
    case "worktree_path":
    case "worktree_cwd": {
      if (value === HARNESS) return undefined;
      const reason = validateField("parent_cwd", value);
      return reason === undefined
        ? undefined
        : `field "${name}" is not an absolute path or "harness": ${JSON.stringify(value)}`;
    }
    case "worktree_branch": {
      if (value === HARNESS) return undefined;
      const reason = validateField("parent_branch", value);
      return reason?.replace('"parent_branch"', '"worktree_branch"');
    }
    default:
      return validateField(name, value);
  }
}

/**
 * Render a v2 block: opening sentinel, blank line, the mode's fields as `name: value`,
 * blank line, closing sentinel, final newline.
 *
 * @example A worktree-mode block ends with the worktree fields
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const block = buildV2Block({
 *   parent_head: "0".repeat(40), parent_branch: "main", parent_cwd: "/repo",
 *   parent_dirty_fingerprint: "e3b0c44298fc", workspace_mode: "worktree",
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z", seed: "1".repeat(40),
 *   worktree_path: "/tmp/child", worktree_branch: "tether/111111111111-1", worktree_cwd: "/tmp/child",
 * });
 * assertEquals(block.split("\n")[0], "<!-- subagent-env-handshake v2 -->");
 * assertEquals(block.split("\n").slice(-5, -3), ["worktree_branch: tether/111111111111-1", "worktree_cwd: /tmp/child"]);
 * ```
 * @param handshake The values.
 * @returns The block text, ending in a newline.
 * @throws {Error} when a field of the mode is absent.
 */
export function buildV2Block(handshake: V2Handshake): string {
  const names: readonly V2FieldName[] = V2_FIELDS[handshake.workspace_mode];
  const lines = names.map((name) => {
    const value = (handshake as Record<string, string | undefined>)[name];
    if (value === undefined) throw new Error(`Field "${name}" is missing`);
    return `${name}: ${value}`;
  });
  return `${OPEN_V2}\n\n${lines.join("\n")}\n\n${CLOSE}\n`;
}

/** What parsing a v2 block found. */
export type V2ParseResult =
  | { kind: "block"; handshake: V2Handshake }
  | { kind: "error"; reason: string };

const OPEN_ANY = /^<!--\s*subagent-env-handshake\b(.*?)-->$/;
const CLOSE_ANY = /^<!--\s*\/subagent-env-handshake\s*-->$/;

/**
 * The version named by the first opening sentinel of a prompt, if any.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(firstBlockVersion("task\n<!-- subagent-env-handshake v2 -->\n"), "v2");
 * assertEquals(firstBlockVersion("no block"), undefined);
 * ```
 * @param prompt The prompt.
 * @returns `v1`, `v2`, another label, or undefined when no block opens.
 */
export function firstBlockVersion(prompt: string): string | undefined {
  for (const raw of normalisePrompt(prompt).split("\n")) {
    const m = OPEN_ANY.exec(raw.trim());
    if (m) return m[1]!.trim();
  }
  return undefined;
}

/**
 * Parse the first block of a prompt as a v2 block. The workspace mode (the fifth field)
 * selects the field list; names, order, count and values are strict, layout tolerant.
 *
 * @example A v1 verifier's sentinel is refused here
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseV2Block("<!-- subagent-env-handshake v1 -->\n<!-- /subagent-env-handshake -->").kind, "error");
 * ```
 * @param prompt The prompt.
 * @returns The handshake or the reason it cannot be read.
 */
export function parseV2Block(prompt: string): V2ParseResult {
  const lines = normalisePrompt(prompt).split("\n").map((l) => l.trim());
  const start = lines.findIndex((l) => OPEN_ANY.test(l));
  if (start < 0 || OPEN_ANY.exec(lines[start]!)![1]!.trim() !== "v2") {
    return { kind: "error", reason: "no v2 block" };
  }
  const end = lines.findIndex((l, i) => i > start && CLOSE_ANY.test(l));
  if (end < 0) return { kind: "error", reason: "opening sentinel without a closing sentinel" };
  const body = lines.slice(start + 1, end).filter((l) => l !== "");
  const values: Record<string, string> = {};
  const modeLine = body[4] ?? "";
  const mode = modeLine.startsWith("workspace_mode:") ? modeLine.slice(15).trim() : "";
  const names: readonly V2FieldName[] = mode === "worktree" ? V2_FIELDS.worktree : V2_FIELDS.shared;
  for (let i = 0; i < Math.max(body.length, names.length); i++) {
    const line = body[i];
    const expected = names[i];
    if (line === undefined) return { kind: "error", reason: `field "${expected}" is missing` };
    if (expected === undefined) {
      return { kind: "error", reason: `unexpected extra line ${JSON.stringify(line)}` };
    }
    const colon = line.indexOf(":");
    if (colon < 0) {
      return { kind: "error", reason: `line ${JSON.stringify(line)} is not "name: value"` };
    }
    const name = line.slice(0, colon).trim();
    if (name !== expected) {
      return {
        kind: "error",
        reason: (names as readonly string[]).includes(name)
          ? `field "${name}" is out of order or repeated; expected "${expected}"`
          : `unknown field "${name}"; expected "${expected}"`,
      };
    }
    const value = line.slice(colon + 1).trim();
    const reason = validateV2Field(expected, value);
    if (reason) return { kind: "error", reason };
    values[expected] = value;
  }
  if (mode === "worktree") {
    const harness = WORKTREE_FIELDS.map((f) => values[f] === HARNESS);
    if (harness.some(Boolean) && !harness.every(Boolean)) {
      return {
        kind: "error",
        reason: `the worktree fields are "${HARNESS}" all together or none of them`,
      };
    }
  }
  return { kind: "block", handshake: values as V2Handshake };
}
