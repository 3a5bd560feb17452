/** The zod-strict contracts and their generated JSON Schema files. */
import { z } from "../src/_zod.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import {
  AgentSubagentSpawnRequest,
  AgentSubagentSpawnResponse,
  AgentSubagentStatus,
  AgentSubagentToolPolicy,
  SubagentResult,
} from "../src/contract/schemas.ts";
import { schemaFiles } from "../scripts/gen_schemas.ts";

function paths(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.code}@${i.path.join(".")}`);
}

const goodResult = {
  ok: true,
  summary: "done",
  files_changed: ["a.ts"],
  errors: [],
  evidence: [{ kind: "commit", ref: "a".repeat(40), ok: true }],
};

Deno.test("tool policy applies the seed's default-deny defaults", () => {
  const policy = AgentSubagentToolPolicy.parse({});
  assertEquals(policy, {
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
  });
});

Deno.test("tool policy rejects unknown keys and out-of-bounds caps", () => {
  assertEquals(paths(AgentSubagentToolPolicy, { allow_everything: true }), ["unrecognized_keys@"]);
  assertEquals(paths(AgentSubagentToolPolicy, { max_iterations: 21 }), ["too_big@max_iterations"]);
  assertEquals(paths(AgentSubagentToolPolicy, { max_mistakes: 0 }), ["too_small@max_mistakes"]);
  assertEquals(paths(AgentSubagentToolPolicy, { max_iterations: 2.5 }), [
    "invalid_type@max_iterations",
  ]);
  assertEquals(paths(AgentSubagentToolPolicy, { workspace_jail: "../up" }), [
    "invalid_format@workspace_jail",
  ]);
});

Deno.test("spawn request enforces task length, role and a strict nested policy", () => {
  const base = { parent_session_id: "p1", task: "review", role: "reviewer" };
  assertEquals(paths(AgentSubagentSpawnRequest, base), []);
  assertEquals(paths(AgentSubagentSpawnRequest, { ...base, task: "" }), ["too_small@task"]);
  assertEquals(paths(AgentSubagentSpawnRequest, { ...base, task: "x".repeat(8001) }), [
    "too_big@task",
  ]);
  assertEquals(paths(AgentSubagentSpawnRequest, { ...base, role: "admin" }), [
    "invalid_value@role",
  ]);
  assertEquals(paths(AgentSubagentSpawnRequest, { ...base, policy: { sudo: true } }), [
    "unrecognized_keys@policy",
  ]);
  assertEquals(paths(AgentSubagentSpawnRequest, { ...base, model: "m".repeat(129) }), [
    "too_big@model",
  ]);
});

Deno.test("spawn response and status reject unknown status values and extra keys", () => {
  const response = {
    child_session_id: "c",
    parent_session_id: "p",
    role: "coder",
    status: "spawned",
  };
  assertEquals(paths(AgentSubagentSpawnResponse, response), []);
  assertEquals(paths(AgentSubagentSpawnResponse, { ...response, status: "zombie" }), [
    "invalid_value@status",
  ]);
  const status = {
    child_session_id: "c",
    parent_session_id: "p",
    role: "coder",
    status: "done",
    iterations: 2,
    mistake_count: 0,
    files_changed: [],
    result_summary: "ok",
    evidence: [{ kind: "test", ref: "t", ok: true }],
    started_at: 1,
    ended_at: null,
  };
  assertEquals(paths(AgentSubagentStatus, status), []);
  assertEquals(paths(AgentSubagentStatus, { ...status, status: "spawned" }), [
    "invalid_value@status",
  ]);
  assertEquals(paths(AgentSubagentStatus, { ...status, iterations: -1 }), ["too_small@iterations"]);
  assertEquals(
    paths(AgentSubagentStatus, { ...status, evidence: [{ kind: "k", ref: "r", ok: true, x: 1 }] }),
    [
      "unrecognized_keys@evidence.0",
    ],
  );
});

Deno.test("subagent result is strict down to evidence and working context", () => {
  assertEquals(paths(SubagentResult, goodResult), []);
  assertEquals(paths(SubagentResult, { ...goodResult, extra: 1 }), ["unrecognized_keys@"]);
  assertEquals(paths(SubagentResult, { ...goodResult, ok: "yes" }), ["invalid_type@ok"]);
  assertEquals(
    paths(SubagentResult, {
      ...goodResult,
      evidence: [{ kind: "file", ref: "a", ok: true, oid: "abc" }],
    }),
    ["invalid_format@evidence.0.oid"],
  );
  assertEquals(
    paths(SubagentResult, { ...goodResult, working_context: { files_read: [], head: "HEAD" } }),
    ["invalid_format@working_context.head"],
  );
  assertEquals(
    paths(SubagentResult, { ...goodResult, working_context: { files_read: [], x: 1 } }),
    [
      "unrecognized_keys@working_context",
    ],
  );
  const { summary: _summary, ...missing } = goodResult;
  assertEquals(paths(SubagentResult, missing), ["invalid_type@summary"]);
});

Deno.test("schema files in schemas/ match what the zod contracts generate (run deno task schemas)", async () => {
  const expected = schemaFiles();
  assertEquals(Object.keys(expected).length, 5);
  const dir = new URL("../schemas/", import.meta.url);
  const onDisk: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.endsWith(".json")) onDisk.push(entry.name);
  }
  assertEquals(onDisk.sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected)) {
    const actual = await Deno.readTextFile(new URL(name, dir));
    assertOk(actual === text, `schemas/${name} is stale: run deno task schemas`);
  }
});

Deno.test("generated JSON Schema forbids unknown keys and carries the bounds", () => {
  const files = schemaFiles();
  const result = JSON.parse(files["SubagentResult.json"]!);
  assertEquals(result.additionalProperties, false);
  assertEquals(result.properties.evidence.items.additionalProperties, false);
  const policy = JSON.parse(files["AgentSubagentToolPolicy.json"]!);
  assertEquals(
    [policy.properties.max_iterations.minimum, policy.properties.max_iterations.maximum],
    [1, 20],
  );
});
