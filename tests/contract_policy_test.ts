/** Role default policies and the seed 001 threat matrix for `checkTool`. */
import { assertEquals } from "../src/_assert.ts";
import { checkTool, effectivePolicy, ROLE_DEFAULT_POLICIES } from "../src/contract/policy.ts";
import { AgentSubagentToolPolicy } from "../src/contract/schemas.ts";

const ROLES = ["researcher", "coder", "tester", "reviewer", "documenter", "custom"] as const;

Deno.test("role table matches the seed: who may write and edit", () => {
  const row = (r: (typeof ROLES)[number]) => {
    const p = ROLE_DEFAULT_POLICIES[r];
    return [p.allow_read, p.allow_search, p.allow_write, p.allow_edit];
  };
  assertEquals(row("researcher"), [true, true, false, false]);
  assertEquals(row("coder"), [true, true, true, true]);
  assertEquals(row("tester"), [true, true, true, false]);
  assertEquals(row("reviewer"), [true, true, false, false]);
  assertEquals(row("documenter"), [true, true, true, false]);
  assertEquals(row("custom"), [true, true, false, false]);
});

Deno.test("every role default is a valid strict policy that denies spawn, desktop and provider", () => {
  for (const role of ROLES) {
    const policy = ROLE_DEFAULT_POLICIES[role];
    assertEquals(AgentSubagentToolPolicy.parse(policy), policy);
    assertEquals([policy.allow_subagent_spawn, policy.allow_desktop, policy.allow_provider], [
      false,
      false,
      false,
    ]);
  }
});

Deno.test("threat: tester calling run_command outside its policy is POLICY_DENIED", () => {
  const decision = checkTool(ROLE_DEFAULT_POLICIES.tester, "run_command");
  assertEquals(decision.allowed, false);
  assertEquals(decision.allowed ? "" : decision.error, "POLICY_DENIED");
});

Deno.test("threat: a child spawning a grandchild with subagent_spawn is POLICY_DENIED", () => {
  for (const role of ROLES) {
    assertEquals(checkTool(ROLE_DEFAULT_POLICIES[role], "subagent_spawn").allowed, false);
  }
  const granted = { ...ROLE_DEFAULT_POLICIES.custom, allow_subagent_spawn: true };
  assertEquals(checkTool(granted, "subagent_spawn").allowed, true);
});

Deno.test("threat: desktop_* and provider_* tools are POLICY_DENIED by default", () => {
  for (
    const tool of ["desktop_click", "desktop_screenshot", "provider_openai", "provider_invoke"]
  ) {
    const decision = checkTool(ROLE_DEFAULT_POLICIES.coder, tool);
    assertEquals(decision.allowed ? "allowed" : decision.error, "POLICY_DENIED", tool);
  }
});

Deno.test("unknown tools are denied; granted tools are allowed", () => {
  assertEquals(checkTool(ROLE_DEFAULT_POLICIES.coder, "format_disk").allowed, false);
  assertEquals(checkTool(ROLE_DEFAULT_POLICIES.coder, "write_file"), {
    allowed: true,
    capability: "allow_write",
  });
  assertEquals(checkTool(ROLE_DEFAULT_POLICIES.reviewer, "write_file").allowed, false);
  assertEquals(checkTool(ROLE_DEFAULT_POLICIES.reviewer, "read_file").allowed, true);
});

Deno.test("an explicit policy in the spawn request wins over the role default", () => {
  const policy = AgentSubagentToolPolicy.parse({ allow_run_command: true });
  const effective = effectivePolicy({ parent_session_id: "p", task: "t", role: "tester", policy });
  assertEquals(checkTool(effective, "run_command").allowed, true);
  const fallback = effectivePolicy({ parent_session_id: "p", task: "t", role: "tester" });
  assertEquals(checkTool(fallback, "run_command").allowed, false);
});
