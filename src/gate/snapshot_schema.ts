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

const schema = z.object({
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
    entries: z.array(entry),
  }).strict().nullable(),
}).strict();

/** The stored snapshot's schema. */
export const WorkingContextSnapshotSchema: z.ZodType<WorkingContextSnapshot> = schema;

/**
 * Parse a snapshot blob's text.
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
  const parsed = WorkingContextSnapshotSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
