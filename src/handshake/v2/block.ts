/**
 * The v2 handshake block: the v1 fields, then `seed` (the parent's exact state as a seed
 * commit), then the fields of the workspace mode. One ordered field list per mode, so a
 * mode's fields are one table entry. The opening sentinel says v2, so a v1 verifier finds
 * no v1 block (its missing path, never a match). Exact mode (shared) and worktree mode
 * share this one table and parser.
 *
 * @module
 */
import { CLOSE_ANY, OPEN_ANY, parseBlock, type ParseResult, trimBlanks } from "../block.ts";
import { FIELD_NAMES, type FieldName, type Handshake, validateField } from "../fields.ts";

/** The opening sentinel of a v2 block. */
export const OPEN_V2 = "<!-- subagent-env-handshake v2 -->";
/** The closing sentinel (the same as v1). */
export const CLOSE_V2 = "<!-- /subagent-env-handshake -->";

/** The workspace modes of v2. */
export type WorkspaceMode = "shared" | "worktree";

/** The v2 fields of every mode, in order: the v1 fields, then `seed`. */
export const V2_COMMON_FIELDS = [...FIELD_NAMES, "seed"] as const;

/** The value the worktree fields take when a harness makes the worktree itself. */
export const HARNESS = "harness";

/** The worktree-mode fields, after `seed`, in this order. */
export const WORKTREE_FIELDS = ["worktree_path", "worktree_branch", "worktree_cwd"] as const;

/** The fields each mode adds after `seed`, in order. */
export const V2_MODE_FIELDS: Readonly<Record<WorkspaceMode, readonly string[]>> = {
  shared: [],
  worktree: WORKTREE_FIELDS,
};

/**
 * The complete ordered field list of a v2 block in a mode.
 *
 * @example Shared mode ends in seed
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(v2Fields("shared").slice(-2), ["handshake_issued_at", "seed"]);
 * ```
 * @param mode The workspace mode.
 * @returns Field names in block order.
 */
export function v2Fields(mode: WorkspaceMode): readonly string[] {
  return [...V2_COMMON_FIELDS, ...V2_MODE_FIELDS[mode]];
}

/** A v2 handshake: the v1 fields, the seed, and the mode's fields. */
export interface HandshakeV2 extends Handshake {
  /** Full id of the seed commit. */
  seed: string;
  /** The mode's own fields (worktree mode), by name. */
  extra?: Record<string, string>;
}

/** One v2 field name. */
export type V2FieldName = FieldName | "seed" | typeof WORKTREE_FIELDS[number];

/** A v2 handshake with every field of its mode flat, by name (worktree mode's view). */
export type V2Handshake =
  & Record<FieldName | "seed", string>
  & { workspace_mode: "shared" | "worktree" }
  & Partial<Record<typeof WORKTREE_FIELDS[number], string>>;

/** What parsing a prompt found, v1 or v2. */
export type AnyParseResult =
  | ParseResult
  | { kind: "v2"; handshake: HandshakeV2; ignored?: number };

/**
 * Check one v2 value: the v1 rules for v1 fields; a full lowercase hex id for `seed`; an
 * absolute path (or `harness`) for `worktree_path` and `worktree_cwd`; a branch name (or
 * `harness`) for `worktree_branch`.
 *
 * @example The worktree fields take a path, a branch name or `harness`
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(validateV2Field("worktree_path", "/tmp/child"), undefined);
 * assertEquals(validateV2Field("worktree_path", "harness"), undefined);
 * assertEquals(validateV2Field("worktree_path", "child"), 'field "worktree_path" is not an absolute path or "harness": "child"');
 * assertEquals(validateV2Field("seed", "abc"), 'field "seed" is not 40 or 64 lowercase hex: "abc"');
 * ```
 * @param name The field.
 * @param value Its text.
 * @returns A reason when invalid, undefined when valid.
 */
export function validateV2Field(name: string, value: string): string | undefined {
  if ((FIELD_NAMES as readonly string[]).includes(name)) {
    return validateField(name as FieldName, value);
  }
  const quoted = JSON.stringify(value);
  switch (name) {
    case "seed":
      return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(value)
        ? undefined
        : `field "seed" is not 40 or 64 lowercase hex: ${quoted}`;
    case "worktree_path":
    case "worktree_cwd":
      return value === HARNESS || validateField("parent_cwd", value) === undefined
        ? undefined
        : `field "${name}" is not an absolute path or "${HARNESS}": ${quoted}`;
    case "worktree_branch":
      return value === HARNESS
        ? undefined
        : validateField("parent_branch", value)?.replace('"parent_branch"', '"worktree_branch"');
    default:
      return `unknown field "${name}"`;
  }
}

/**
 * Render a v2 block: opening sentinel, blank line, the mode's fields as `name: value`,
 * blank line, closing sentinel, final newline.
 *
 * @example A shared-mode block
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const block = buildV2Block({
 *   parent_head: "0".repeat(40), parent_branch: "main", parent_cwd: "/repo",
 *   parent_dirty_fingerprint: "e3b0c44298fc", workspace_mode: "shared",
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z", seed: "1".repeat(40),
 * });
 * assertEquals(block.split("\n")[0], "<!-- subagent-env-handshake v2 -->");
 * assertEquals(block.split("\n")[8], `seed: ${"1".repeat(40)}`);
 * ```
 * @param handshake The values.
 * @returns The block text, ending in a newline.
 */
export function buildV2Block(handshake: HandshakeV2 | V2Handshake): string {
  const { extra, ...fields } = handshake as HandshakeV2;
  const values: Record<string, string | undefined> = { ...extra, ...fields };
  const missing = v2Fields(handshake.workspace_mode).find((name) => values[name] === undefined);
  if (missing !== undefined) throw new Error(`Field "${missing}" is missing`);
  const lines = v2Fields(handshake.workspace_mode).map((name) => `${name}: ${values[name]}`);
  return `${OPEN_V2}\n\n${lines.join("\n")}\n\n${CLOSE_V2}\n`;
}

// The block format's white space, sentinels and trim are v1's (space and tab only): one
// definition, so a line is layout or content alike for both parsers.
const trimAscii = trimBlanks; // GUARD:one-white-space

function normalise(text: string): string[] {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n").map(trimAscii);
}

/** Parse the body lines of a v2 block against the field table of its mode. */
function parseV2Body(body: string[]): { handshake: HandshakeV2 } | { reason: string } {
  const values: Record<string, string> = {};
  let names: readonly string[] = v2Fields("shared");
  for (let i = 0; i < Math.max(body.length, names.length); i++) {
    const line = body[i];
    const expected = names[i];
    if (line === undefined) return { reason: `field "${expected}" is missing` };
    if (expected === undefined) return { reason: `unexpected extra line ${JSON.stringify(line)}` };
    const colon = line.indexOf(":");
    if (colon < 0) return { reason: `line ${JSON.stringify(line)} is not "name: value"` };
    const name = trimAscii(line.slice(0, colon));
    if (name !== expected) {
      const known = v2Fields("worktree").includes(name);
      return {
        reason: known
          ? `field "${name}" is out of order or repeated; expected "${expected}"`
          : `unknown field "${name}"; expected "${expected}"`,
      };
    }
    const value = trimAscii(line.slice(colon + 1));
    const reason = validateV2Field(name, value);
    if (reason) return { reason };
    values[name] = value;
    if (name === "workspace_mode") names = v2Fields(value as WorkspaceMode);
  }
  if (values.seed!.length !== values.parent_head!.length) {
    return { reason: `field "seed" is not of the object format of "parent_head"` };
  }
  const harness = WORKTREE_FIELDS.filter((f) => values[f] === HARNESS).length;
  if (harness !== 0 && harness !== WORKTREE_FIELDS.length) {
    return { reason: `the worktree fields are "${HARNESS}" all together or none of them` };
  }
  const extra = Object.fromEntries(
    V2_MODE_FIELDS[values.workspace_mode as WorkspaceMode].map((n) => [n, values[n]!]),
  );
  const handshake = Object.fromEntries(V2_COMMON_FIELDS.map((n) => [n, values[n]!]));
  return {
    handshake: {
      ...(handshake as unknown as HandshakeV2),
      ...(Object.keys(extra).length ? { extra } : {}),
    },
  };
}

/**
 * Find the handshake in a prompt: the **first** block is the handshake. A v2 block is
 * parsed here; anything else is left to the v1 parser, unchanged. Later blocks after a v2
 * block are task content, counted in `ignored`.
 *
 * @example A v2 block wins over a later quoted block
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const v2 = buildV2Block({
 *   parent_head: "0".repeat(40), parent_branch: "main", parent_cwd: "/repo",
 *   parent_dirty_fingerprint: "e3b0c44298fc", workspace_mode: "shared",
 *   handshake_issued_at: "2026-11-29T20:15:00.1234567Z", seed: "1".repeat(40),
 * });
 * const parsed = parseHandshake(`${v2}\ntask quoting <!-- subagent-env-handshake v1 -->`);
 * assertEquals(parsed.kind, "v2");
 * assertEquals(parseHandshake("no block").kind, "missing");
 * ```
 * @param prompt The whole dispatch prompt.
 * @returns The v2 handshake, or what the v1 parser says.
 */
export function parseHandshake(prompt: string): AnyParseResult {
  const lines = normalise(prompt);
  const start = lines.findIndex((l) => OPEN_ANY.test(l));
  if (start < 0 || trimAscii(OPEN_ANY.exec(lines[start]!)![1]!) !== "v2") {
    return parseBlock(prompt);
  }
  const end = lines.findIndex((l, i) => i > start && CLOSE_ANY.test(l));
  if (end < 0) return { kind: "error", reason: "opening sentinel without a closing sentinel" };
  const parsed = parseV2Body(lines.slice(start + 1, end).filter((l) => l !== ""));
  if ("reason" in parsed) return { kind: "error", reason: parsed.reason };
  const ignored = lines.slice(end + 1).filter((l) => OPEN_ANY.test(l)).length;
  return ignored > 0
    ? { kind: "v2", handshake: parsed.handshake, ignored }
    : { kind: "v2", handshake: parsed.handshake };
}

/** What {@linkcode parseV2Block} found. */
export type V2ParseResult =
  | { kind: "block"; handshake: V2Handshake }
  | { kind: "error"; reason: string };

/**
 * The version named by the first opening sentinel of a prompt, if any.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(firstBlockVersion("task\n<!-- subagent-env-handshake v2 -->\n"), "v2");
 * assertEquals(firstBlockVersion("no block"), undefined);
 * ```
 * @param prompt The prompt.
 * @returns `v1`, `v2`, another label, or undefined when no block opens.
 */
export function firstBlockVersion(prompt: string): string | undefined {
  const line = normalise(prompt).find((l) => OPEN_ANY.test(l));
  return line === undefined ? undefined : trimAscii(OPEN_ANY.exec(line)![1]!);
}

/**
 * Parse the first block of a prompt as a v2 block, its fields flat by name.
 *
 * @example A v1 block is no v2 block
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * assertEquals(parseV2Block("<!-- subagent-env-handshake v1 -->\n<!-- /subagent-env-handshake -->").kind, "error");
 * ```
 * @param prompt The prompt.
 * @returns The handshake or the reason it cannot be read.
 */
export function parseV2Block(prompt: string): V2ParseResult {
  const parsed = parseHandshake(prompt);
  if (parsed.kind === "error") return parsed;
  if (parsed.kind !== "v2") return { kind: "error", reason: "no v2 block" };
  const { extra, ...fields } = parsed.handshake;
  return { kind: "block", handshake: { ...fields, ...extra } as V2Handshake };
}
