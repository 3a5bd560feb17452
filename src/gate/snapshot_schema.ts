/**
 * Reading a spawn snapshot back: zod validation of the blob `handshake --context` wrote,
 * so a blob that is not a tether snapshot is refused instead of misread.
 *
 * @module
 */
import { z } from "../_zod.ts";
import type { WorkingContextSnapshot } from "../context/snapshot.ts";

const entry = z.object({
  xy: z.string().length(2),
  path: z.string().min(1),
  oid: z.string().nullable(),
  state: z.string().optional(),
  content: z.string().optional(),
})
  .strict();

/** The snapshot around its entries; `entries` is the one part as large as the tree. */
function shape<E extends z.ZodType>(entries: E) {
  return z.object({
    tether_snapshot: z.literal(1),
    captured_at: z.string(),
    audience: z.enum(["private", "public"]),
    project_dir: z.string(),
    recent_files: z.array(z.string()),
    git: z.object({
      worktree: z.string(),
      branch: z.string(),
      head: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/).nullable(),
      object_format: z.enum(["sha1", "sha256"]),
      linked_worktree: z.boolean(),
      remotes: z.array(z.object({ name: z.string(), url: z.string() }).strict()),
      staged: z.number().int().gte(0),
      modified: z.number().int().gte(0),
      untracked: z.number().int().gte(0),
      entries,
      skip_worktree: z.string().regex(/^\d+:[0-9a-f]{64}$/).optional(),
      ref: z.string().nullable().optional(),
      conversions: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
    }).strict().nullable(),
  }).strict();
}

const schema = shape(z.array(entry));

/** Everything but the entries, checked by zod; the entries by {@linkcode isEntry}. */
const outline = shape(z.array(z.unknown()));

/** The stored snapshot's schema. */
export const WorkingContextSnapshotSchema: z.ZodType<WorkingContextSnapshot> = schema;

const ENTRY_KEYS = new Set(["xy", "path", "oid", "state", "content"]);

/**
 * Whether a value is an entry as the schema's `entry` takes it (an object with exactly
 * those keys, `xy` two characters, `path` not empty, `oid` a string or null, `state` and
 * `content` strings when present): the same test, without zod's cost per entry.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(isEntry({ xy: " M", path: "a", oid: null, content: "absent" }), true);
 * assertEquals(isEntry({ xy: " M", path: "a" }), false);
 * assertEquals(isEntry({ xy: " M", path: "a", oid: null, extra: 1 }), false);
 * assertEquals(isEntry([" M", "a", null]), false);
 * ```
 * @param value One element of `git.entries`.
 * @returns True when the schema's entry accepts it.
 */
export function isEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  for (const key of Object.keys(e)) if (!ENTRY_KEYS.has(key)) return false;
  return typeof e.xy === "string" && e.xy.length === 2 &&
    typeof e.path === "string" && e.path.length >= 1 &&
    (e.oid === null || typeof e.oid === "string") &&
    (e.state === undefined || typeof e.state === "string") &&
    (e.content === undefined || typeof e.content === "string");
}

/**
 * Parse a snapshot blob's text: {@linkcode WorkingContextSnapshotSchema}'s answer, the
 * entries checked one by one without zod (a snapshot of 10,000 entries would otherwise
 * spend most of its parse in it).
 *
 * @param text The blob's content.
 * @returns The snapshot, or undefined when the text is not a tether snapshot.
 */
export function parseSnapshot(text: string): WorkingContextSnapshot | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = outline.safeParse(value);
  if (!parsed.success) return undefined;
  const git = parsed.data.git;
  if (git && !git.entries.every(isEntry)) return undefined; // tether:guard snapshot-entries
  return parsed.data as WorkingContextSnapshot;
}
