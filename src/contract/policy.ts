/**
 * Role default policies and the tool check of seed 001: default-deny, no grandchildren,
 * no desktop, no provider. Pure.
 *
 * @module
 */
import type { AgentSubagentSpawnRequest, AgentSubagentToolPolicy } from "./schemas.ts";

/** A child's role. */
export type Role = AgentSubagentSpawnRequest["role"];

const BASE: AgentSubagentToolPolicy = {
  allow_read: true,
  allow_search: true,
  allow_write: false,
  allow_edit: false,
  allow_run_command: false,
  allow_subagent_spawn: false,
  allow_desktop: false,
  allow_provider: false,
  allow_network: false,
  max_iterations: 8,
  max_mistakes: 3,
};

/**
 * The seed's default policy per role, the safest default for each. "jail" in the seed
 * means writes stay inside the child's scratch directory, which {@linkcode resolveInsideJail}
 * enforces. The seed's tester row says `run_cmd: yes (test only)`, while its threat
 * matrix requires a tester's `run_command` to be denied; a boolean policy cannot say
 * "test only", so the tester default denies it and a host that wants the tester to run
 * tests grants `allow_run_command` explicitly. `custom` gets the schema defaults.
 */
export const ROLE_DEFAULT_POLICIES: Readonly<Record<Role, Readonly<AgentSubagentToolPolicy>>> = {
  researcher: { ...BASE },
  coder: { ...BASE, allow_write: true, allow_edit: true },
  tester: { ...BASE, allow_write: true },
  reviewer: { ...BASE },
  documenter: { ...BASE, allow_write: true },
  custom: { ...BASE },
};

/**
 * The policy a spawn request runs under: its own, or its role's default.
 *
 * @example A coder without an explicit policy
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const policy = effectivePolicy({ parent_session_id: "p", task: "t", role: "coder" });
 * assertEquals([policy.allow_write, policy.allow_subagent_spawn], [true, false]);
 * ```
 * @param request A validated spawn request.
 * @returns The policy to enforce.
 */
export function effectivePolicy(request: AgentSubagentSpawnRequest): AgentSubagentToolPolicy {
  return request.policy ?? { ...ROLE_DEFAULT_POLICIES[request.role] };
}

/** The policy switch a tool needs. */
export type Capability = keyof Omit<
  AgentSubagentToolPolicy,
  "max_iterations" | "max_mistakes" | "workspace_jail"
>;

const EXACT: Readonly<Record<string, Capability>> = {
  subagent_spawn: "allow_subagent_spawn",
  run_command: "allow_run_command",
  run_tests: "allow_run_command",
  shell_execute: "allow_run_command",
  read_file: "allow_read",
  list_dir: "allow_read",
  search: "allow_search",
  grep: "allow_search",
  write_file: "allow_write",
  create_file: "allow_write",
  delete_file: "allow_write",
  edit_file: "allow_edit",
  apply_patch: "allow_edit",
  fetch: "allow_network",
};

const PREFIXES: readonly (readonly [string, Capability])[] = [
  ["desktop_", "allow_desktop"],
  ["provider_", "allow_provider"],
  ["subagent_", "allow_subagent_spawn"],
  ["network_", "allow_network"],
  ["http_", "allow_network"],
  ["web_", "allow_network"],
  ["read_", "allow_read"],
  ["search_", "allow_search"],
  ["index_", "allow_search"],
  ["write_", "allow_write"],
  ["edit_", "allow_edit"],
];

/**
 * The policy switch a tool name needs, or undefined for a tool tether does not know.
 *
 * @example Classify tools
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(capabilityOf("desktop_click"), "allow_desktop");
 * assertEquals(capabilityOf("mystery"), undefined);
 * ```
 * @param tool The tool name.
 * @returns The capability, or undefined.
 */
export function capabilityOf(tool: string): Capability | undefined {
  const exact = EXACT[tool];
  if (exact) return exact;
  return PREFIXES.find(([prefix]) => tool.startsWith(prefix) && tool.length > prefix.length)?.[1];
}

/** The outcome of {@linkcode checkTool}. */
export type ToolDecision =
  | { allowed: true; capability: Capability }
  | { allowed: false; error: "POLICY_DENIED"; reason: string };

/**
 * Decide whether a policy lets a child call a tool. Default-deny: a tool tether cannot
 * classify is denied, and so is every tool whose switch is off.
 *
 * @example The seed's threat matrix
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * import { ROLE_DEFAULT_POLICIES } from "./policy.ts";
 * const tester = ROLE_DEFAULT_POLICIES.tester;
 * assertEquals(checkTool(tester, "run_command").allowed, false);
 * assertEquals(checkTool(tester, "subagent_spawn").allowed, false);
 * assertEquals(checkTool(tester, "read_file").allowed, true);
 * ```
 * @param policy The child's policy.
 * @param tool The tool name the child called.
 * @returns Allowed with the capability used, or `POLICY_DENIED` with a reason.
 */
export function checkTool(policy: AgentSubagentToolPolicy, tool: string): ToolDecision {
  const capability = capabilityOf(tool);
  if (capability === undefined) {
    return {
      allowed: false,
      error: "POLICY_DENIED",
      reason: `Unknown tool "${tool}" is denied by default`,
    };
  }
  if (!policy[capability]) {
    return {
      allowed: false,
      error: "POLICY_DENIED",
      reason: `Tool "${tool}" needs ${capability}, which the policy does not grant`,
    };
  }
  return { allowed: true, capability };
}
