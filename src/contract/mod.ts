/**
 * Contracts of seed 001: zod-strict schemas, role default policies, the tool check and
 * the path jail.
 *
 * @module
 */
export {
  AgentSubagentSpawnRequest,
  AgentSubagentSpawnResponse,
  AgentSubagentStatus,
  AgentSubagentToolPolicy,
  CONTRACTS,
  SubagentResult,
} from "./schemas.ts";
export type { AgentSubagentEvidence, SubagentEvidence, SubagentWorkingContext } from "./schemas.ts";
export {
  type Capability,
  capabilityOf,
  checkTool,
  effectivePolicy,
  type Role,
  ROLE_DEFAULT_POLICIES,
  type ToolDecision,
} from "./policy.ts";
export { JailError, jailRelativePath, resolveInsideJail } from "./jail.ts";
