/**
 * Regressions from the independent hostile review of coord: each names the leak it closes.
 */
import { join } from "node:path";
import { assertEquals, assertExcludes, assertOk } from "../src/_assert.ts";
import { bin } from "./_helpers.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";

Deno.test("coord: git trace variables set by W2 do not dump W1's reflog to a file W2 chooses", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const secret = await repo.commit("W1", { "s.md": "s\n" }, "W1 secret XYZZY");
    await repo.commit("W2", { "w2.md": "w2\n" }, "W2 work");
    const trace = join(repo.root, "trace");
    const env: Record<string, string> = {};
    for (
      const name of ["GIT_TRACE", "GIT_TRACE_REFS", "GIT_TRACE_SETUP", "GIT_TRACE_PERFORMANCE"]
    ) {
      env[name] = `${trace}.${name}`;
    }
    env.GIT_TRACE2_EVENT = `${trace}.event`;
    const r = await bin("coord", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      "HEAD",
      "--path",
      "w2.md",
      "--subject",
      "x",
    ], {
      cwd: repo.wt.W2,
      stdin: "b\n",
      env,
    });
    assertEquals(r.code, 0, r.stderr);
    for (const name of [...Object.keys(env)]) {
      const text = await Deno.readTextFile(env[name]!).catch(() => "");
      assertExcludes(text, secret);
      assertExcludes(text, "XYZZY");
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord status does not list a work item in which the caller sees nothing", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    assertEquals(
      (await repo.coord(
        "W1",
        ["send", "W1ProofIsWrong", "--to", "Primary", "--subject", "p"],
        "p\n",
      )).code,
      0,
    );
    for (const lane of ["W2", "W3"] as const) {
      const all = await repo.coord(lane, ["status"]);
      assertEquals(all.code, 0, all.stderr);
      assertExcludes(all.stdout, "W1ProofIsWrong");
      assertExcludes((await repo.coord(lane, ["status", "--json"])).stdout, "W1ProofIsWrong");
      // Named explicitly, it answers exactly like a work item that does not exist.
      const named = await repo.coord(lane, ["status", "W1ProofIsWrong"]);
      const missing = await repo.coord(lane, ["status", "Zzz"]);
      assertEquals(named.stdout.replaceAll("W1ProofIsWrong", "Zzz"), missing.stdout);
    }
    assertOk((await repo.coord("Primary", ["status"])).stdout.includes("W1ProofIsWrong"));
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord status: W2 acknowledging a blocker does not change what blind W1 sees", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const id = (await repo.coord("Primary", [
      "send",
      "E002",
      "--to",
      "W1,W2",
      "--type",
      "BLOCKER",
      "--subject",
      "blk",
    ], "b\n"))
      .stdout.trim();
    const before = await repo.coord("W1", ["status", "E002"]);
    assertOk(before.stdout.includes("1 open blockers"), before.stdout);
    assertEquals((await repo.coord("W2", ["ack", id])).code, 0);
    assertEquals((await repo.coord("W1", ["status", "E002"])).stdout, before.stdout);
    // Primary may talk with W2, so it does see the acknowledgement.
    assertOk((await repo.coord("Primary", ["status", "E002"])).stdout.includes("0 open blockers"));
  } finally {
    await repo.cleanup();
  }
});
