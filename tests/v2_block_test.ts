/** The v2 block: built in one layout, parsed with v1's tolerance and strictness. */
import { assertEquals, assertMatch } from "../src/_assert.ts";
import {
  buildV2Block,
  type HandshakeV2,
  parseHandshake,
  v2Fields,
} from "../src/handshake/v2/block.ts";

const BASE: HandshakeV2 = {
  parent_head: "a".repeat(40),
  parent_branch: "main",
  parent_cwd: "/repo",
  parent_dirty_fingerprint: "e3b0c44298fc",
  workspace_mode: "shared",
  handshake_issued_at: "2026-11-29T20:15:00.1234567Z",
  seed: "b".repeat(40),
};
const BLOCK = buildV2Block(BASE);

function reason(prompt: string): string {
  const parsed = parseHandshake(prompt);
  assertEquals(parsed.kind, "error", JSON.stringify(parsed));
  return (parsed as { reason: string }).reason;
}

Deno.test("v2 block: built in the template layout and read back", () => {
  assertEquals(BLOCK.split("\n"), [
    "<!-- subagent-env-handshake v2 -->",
    "",
    ...v2Fields("shared").map((n) => `${n}: ${(BASE as unknown as Record<string, string>)[n]}`),
    "",
    "<!-- /subagent-env-handshake -->",
    "",
  ]);
  const parsed = parseHandshake(`\uFEFF${BLOCK.replace(/\n/g, "\r\n")}task`);
  assertEquals(parsed.kind, "v2");
  assertEquals((parsed as { handshake: HandshakeV2 }).handshake, BASE);
  const compact = BLOCK.replace(/\n\n/g, "\n").replace(/^(\w+): /gm, "  $1:   ");
  assertEquals((parseHandshake(compact) as { handshake: HandshakeV2 }).handshake, BASE);
});

Deno.test("v2 block: a missing, extra, reordered or invalid seed field is the error path", () => {
  assertMatch(reason(BLOCK.replace(/seed: .*\n/, "")), /field "seed" is missing/);
  assertMatch(reason(BLOCK.replace(/(seed: .*\n)/, "$1extra: x\n")), /unexpected extra line/);
  assertMatch(
    reason(BLOCK.replace(/(handshake_issued_at: .*\n)(seed: .*\n)/, "$2$1")),
    /field "seed" is out of order/,
  );
  assertMatch(reason(BLOCK.replace(/seed: .*/, "seed: abc")), /"seed" is not 40 or 64/);
  assertMatch(reason(BLOCK.replace(/seed: .*/, `seed: ${"c".repeat(64)}`)), /object format/);
});

Deno.test("v2 block: a no-break space is part of a value, never trimmed away", () => {
  assertMatch(reason(BLOCK.replace("parent_branch: main", "parent_branch: main\u00a0")), /branch/);
  assertMatch(reason(BLOCK.replace(/seed: (.*)/, "seed: $1\u00a0")), /"seed"/);
});

Deno.test("v2 block: worktree mode is one more table entry with its own fields", () => {
  const worktree = buildV2Block({
    ...BASE,
    workspace_mode: "worktree",
    extra: { worktree_path: "/wt", worktree_branch: "tether/1-1", worktree_cwd: "/wt/sub" },
  });
  const parsed = parseHandshake(worktree);
  assertEquals(parsed.kind, "v2");
  assertEquals((parsed as { handshake: HandshakeV2 }).handshake.extra, {
    worktree_path: "/wt",
    worktree_branch: "tether/1-1",
    worktree_cwd: "/wt/sub",
  });
  assertMatch(reason(worktree.replace(/worktree_cwd: .*\n/, "")), /"worktree_cwd" is missing/);
  assertMatch(
    reason(BLOCK.replace("workspace_mode: shared", "workspace_mode: worktree")),
    /missing/,
  );
});

Deno.test("v2 block: a v1 block first is left to the v1 parser", () => {
  const v1 = BLOCK.replace("v2 -->", "v1 -->").replace(/seed: .*\n/, "");
  assertEquals(parseHandshake(v1).kind, "block");
  assertEquals(parseHandshake("a task").kind, "missing");
});
