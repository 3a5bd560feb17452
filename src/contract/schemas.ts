/**
 * The zod-strict contracts of seed 001 and the child's return, `SubagentResult`.
 * Unknown keys are rejected and every bound is enforced. Each schema carries an
 * explicit type; a compile-time check pins it to what zod infers.
 *
 * @module
 */
import { z } from "../_zod.ts";

/** What a tool policy allows once defaults are applied. */
export interface AgentSubagentToolPolicy {
  /** Read tools. Default true. */
  allow_read: boolean;
  /** Search and index tools. Default true. */
  allow_search: boolean;
  /** Write tools (inside the jail). Default false. */
  allow_write: boolean;
  /** Edit tools (inside the jail). Default false. */
  allow_edit: boolean;
  /** Shell commands. Default false. */
  allow_run_command: boolean;
  /** `subagent_spawn`: grandchildren. Default false. */
  allow_subagent_spawn: boolean;
  /** `desktop_*` tools. Default false. */
  allow_desktop: boolean;
  /** `provider_*` tools (cloud). Default false. */
  allow_provider: boolean;
  /** Network tools. Default false. */
  allow_network: boolean;
  /** Iteration cap, 1–20. Default 8. */
  max_iterations: number;
  /** Mistake cap, 1–5. Default 3. */
  max_mistakes: number;
  /** Directory writes are confined to. */
  workspace_jail?: string | undefined;
}

/** A request to spawn a child agent. */
export interface AgentSubagentSpawnRequest {
  /** The parent's session id. */
  parent_session_id: string;
  /** The delegated task, 1–8000 characters. */
  task: string;
  /** The child's role. */
  role: "researcher" | "coder" | "tester" | "reviewer" | "documenter" | "custom";
  /** The child's tool policy; the role's default when absent. */
  policy?: AgentSubagentToolPolicy | undefined;
  /** The model to use; inherited when absent. */
  model?: string | undefined;
  /** The child's scratch directory. */
  scratch_dir?: string | undefined;
}

/** The answer to a spawn request. */
export interface AgentSubagentSpawnResponse {
  /** The child's session id. */
  child_session_id: string;
  /** The parent's session id. */
  parent_session_id: string;
  /** The child's role. */
  role: string;
  /** Where the child is. */
  status: "spawned" | "running" | "done" | "aborted" | "error";
}

/** One evidence item as seed 001's status carries it. */
export interface AgentSubagentEvidence {
  /** What kind of evidence. */
  kind: string;
  /** What it points at. */
  ref: string;
  /** Whether it shows success. */
  ok: boolean;
}

/** A child's status, as the parent sees it. */
export interface AgentSubagentStatus {
  /** The child's session id. */
  child_session_id: string;
  /** The parent's session id. */
  parent_session_id: string;
  /** The child's role. */
  role: string;
  /** Where the child is. */
  status: "running" | "done" | "aborted" | "error";
  /** Iterations so far. */
  iterations: number;
  /** Mistakes so far. */
  mistake_count: number;
  /** Files the child says it changed. */
  files_changed: string[];
  /** The child's summary. */
  result_summary: string;
  /** Evidence items. */
  evidence: AgentSubagentEvidence[];
  /** Start time, epoch milliseconds. */
  started_at: number;
  /** End time, epoch milliseconds, or null while running. */
  ended_at: number | null;
}

/** One evidence item of a {@linkcode SubagentResult}. */
export interface SubagentEvidence {
  /** `commit` (ref = full SHA), `file` (ref = top-level-relative path), or any other kind (unverifiable). */
  kind: string;
  /** What the evidence points at. */
  ref: string;
  /** Whether the child says it shows success. */
  ok: boolean;
  /** For `file`: the blob id the file should have. */
  oid?: string | undefined;
}

/** The child's structured working-context metadata. */
export interface SubagentWorkingContext {
  /** Files the child read. */
  files_read: string[];
  /** The branch at the end of the run. */
  branch?: string | undefined;
  /** HEAD at the end of the run, full hex. */
  head?: string | undefined;
}

/** The child's return, checked by `gate`. */
export interface SubagentResult {
  /** Whether the child says it succeeded. */
  ok: boolean;
  /** A short summary. */
  summary: string;
  /** Files the child claims it changed, relative to the top level. */
  files_changed: string[];
  /** Errors the child met. */
  errors: string[];
  /** Evidence for the claims. */
  evidence: SubagentEvidence[];
  /** Working-context metadata (seed 004). */
  working_context?: SubagentWorkingContext | undefined;
}

const JAIL_PATTERN = /^[a-z0-9_\-\/]{1,128}$/;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const PATH_MAX = 4096;
const LIST_MAX = 100_000;

const toolPolicy = z.object({
  allow_read: z.boolean().default(true),
  allow_search: z.boolean().default(true),
  allow_write: z.boolean().default(false),
  allow_edit: z.boolean().default(false),
  allow_run_command: z.boolean().default(false),
  allow_subagent_spawn: z.boolean().default(false),
  allow_desktop: z.boolean().default(false),
  allow_provider: z.boolean().default(false),
  allow_network: z.boolean().default(false),
  max_iterations: z.number().int().gte(1).lte(20).default(8),
  max_mistakes: z.number().int().gte(1).lte(5).default(3),
  workspace_jail: z.string().regex(JAIL_PATTERN).optional(),
}).strict();

const spawnRequest = z.object({
  parent_session_id: z.string().min(1),
  task: z.string().min(1).max(8000),
  role: z.enum(["researcher", "coder", "tester", "reviewer", "documenter", "custom"]),
  policy: toolPolicy.optional(),
  model: z.string().min(1).max(128).optional(),
  scratch_dir: z.string().regex(JAIL_PATTERN).optional(),
}).strict();

const spawnResponse = z.object({
  child_session_id: z.string().min(1),
  parent_session_id: z.string().min(1),
  role: z.string(),
  status: z.enum(["spawned", "running", "done", "aborted", "error"]),
}).strict();

const status = z.object({
  child_session_id: z.string().min(1),
  parent_session_id: z.string().min(1),
  role: z.string(),
  status: z.enum(["running", "done", "aborted", "error"]),
  iterations: z.number().int().gte(0),
  mistake_count: z.number().int().gte(0),
  files_changed: z.array(z.string()),
  result_summary: z.string(),
  evidence: z.array(z.object({ kind: z.string(), ref: z.string(), ok: z.boolean() }).strict()),
  started_at: z.number().int(),
  ended_at: z.number().int().nullable(),
}).strict();

const path = z.string().min(1).max(PATH_MAX);

const evidence = z.object({
  kind: z.string().min(1).max(64),
  ref: z.string().min(1).max(PATH_MAX),
  ok: z.boolean(),
  oid: z.string().regex(OID).optional(),
}).strict();

const result = z.object({
  ok: z.boolean(),
  summary: z.string().max(65_536),
  files_changed: z.array(path).max(LIST_MAX),
  errors: z.array(z.string().max(65_536)).max(1000),
  evidence: z.array(evidence).max(1000),
  working_context: z.object({
    files_read: z.array(path).max(LIST_MAX),
    branch: z.string().min(1).max(256).optional(),
    head: z.string().regex(OID).optional(),
  }).strict().optional(),
}).strict();

/** Seed 001's tool policy: default-deny for everything but reading and searching. */
export const AgentSubagentToolPolicy: z.ZodType<AgentSubagentToolPolicy> = toolPolicy;
/** Seed 001's spawn request. */
export const AgentSubagentSpawnRequest: z.ZodType<AgentSubagentSpawnRequest> = spawnRequest;
/** Seed 001's spawn response. */
export const AgentSubagentSpawnResponse: z.ZodType<AgentSubagentSpawnResponse> = spawnResponse;
/** Seed 001's child status. */
export const AgentSubagentStatus: z.ZodType<AgentSubagentStatus> = status;
/** The child's return, with evidence and working-context metadata. */
export const SubagentResult: z.ZodType<SubagentResult> = result;

/** Every contract by name, the order the JSON Schema files are written in. */
export const CONTRACTS: Readonly<Record<string, z.ZodType>> = {
  AgentSubagentToolPolicy,
  AgentSubagentSpawnRequest,
  AgentSubagentSpawnResponse,
  AgentSubagentStatus,
  SubagentResult,
};

// Compile-time proof that each explicit type is exactly what zod infers.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
type Proof<T extends true> = T;
export type _Proofs = [
  Proof<Same<z.infer<typeof toolPolicy>, AgentSubagentToolPolicy>>,
  Proof<Same<z.infer<typeof spawnRequest>, AgentSubagentSpawnRequest>>,
  Proof<Same<z.infer<typeof spawnResponse>, AgentSubagentSpawnResponse>>,
  Proof<Same<z.infer<typeof status>, AgentSubagentStatus>>,
  Proof<Same<z.infer<typeof result>, SubagentResult>>,
];
