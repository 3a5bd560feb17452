/**
 * The policy is the `STATUS` blob at the tip of the policy ref, read through git at every
 * command: a replace ref, a config value in the environment or a lane's own branch
 * cannot stand in for it, and a change on main takes effect at the next command.
 *
 * @module
 */
import { assertEquals } from "../src/_assert.ts";
import { bin, run, writeFiles } from "./_helpers.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";

Deno.test("coord ignores a git replace ref that swaps main's tip for a commit whose STATUS lifts blindness", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const send = () => repo.coord("W2", ["send", "E001", "--to", "W1", "--subject", "hi"]);
    assertEquals((await send()).code, 4);
    // W2 forges a commit whose STATUS has no blind line and replaces main's tip with it.
    await writeFiles(repo.wt.W2, { STATUS: repo.header });
    const forged = await repo.commit("W2", {}, "forged STATUS");
    const tip = await repo.git("Primary", ["rev-parse", "main"]);
    await repo.git("W2", ["replace", tip, forged]);
    assertEquals(
      await repo.git("W2", ["show", "main:STATUS"]),
      repo.header.trimEnd(),
      "git itself now sees the forgery",
    );
    assertEquals((await send()).code, 4, "coord still reads the real STATUS");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord takes coord.policyRef from the repository config only, not from GIT_CONFIG_* in the environment", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    await writeFiles(repo.wt.W2, { STATUS: repo.header });
    await repo.commit("W2", {}, "W2's own STATUS without blindness");
    const env = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "coord.policyRef",
      GIT_CONFIG_VALUE_0: "refs/heads/w2",
    };
    const seen = await run("git", ["config", "--get", "coord.policyRef"], { cwd: repo.wt.W2, env });
    assertEquals(seen.stdout.trim(), "refs/heads/w2", "the variables do reach git");
    const r = await bin("coord", ["send", "E001", "--to", "W1", "--subject", "hi"], {
      cwd: repo.wt.W2,
      env,
    });
    assertEquals(r.code, 4, "the environment did not redirect the policy");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a policy change on main takes effect at the next command of every lane", async () => {
  const repo = await makeCoordRepo();
  try {
    assertEquals(
      (await repo.coord("W1", ["send", "E001", "--to", "W2", "--subject", "open"])).code,
      0,
    );
    assertEquals((await repo.coord("W2", ["inbox", "E001"])).stdout.includes("E001-M0001"), true);
    await repo.setStatus("blind: W1 W2\n");
    assertEquals(
      (await repo.coord("W2", ["inbox", "E001"])).stdout,
      "",
      "old message hidden at the next read",
    );
    assertEquals((await repo.coord("W2", ["read", "E001-M0001"])).code, 4);
    assertEquals(
      (await repo.coord("W1", ["send", "E001", "--to", "W2", "--subject", "now blind"])).code,
      4,
    );
    await repo.setStatus("");
    assertEquals((await repo.coord("W2", ["read", "E001-M0001"])).code, 0, "lifted again");
  } finally {
    await repo.cleanup();
  }
});
