/**
 * coord calls git a bounded number of times per command, never once per message or per
 * work item: the number of git processes (counted by a `git` shim first on PATH) stays the
 * same when the store grows tenfold.
 *
 * @module
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import {
  type CoordRepo,
  type GitCounter,
  gitCounter,
  type Lane,
  makeCoordRepo,
} from "./_coord_fixture.ts";

let counter: GitCounter;

async function gitCount(repo: CoordRepo, lane: Lane, args: string[]): Promise<number> {
  await counter.take();
  const r = await repo.coord(lane, args, undefined, counter.env);
  assertEquals(r.code, 0, r.stderr);
  const count = await counter.take();
  assertOk(count > 0, "the shim saw no git call");
  return count;
}

async function handoffs(repo: CoordRepo, n: number, workItems: string[]) {
  for (let i = 0; i < n; i++) {
    const lane = (["W1", "W2", "W3"] as const)[i % 3]!;
    const wi = workItems[i % workItems.length]!;
    await repo.commit(lane, { [`${lane}.md`]: `${lane} ${i}\n` });
    const r = await repo.coord(lane, [
      "handoff",
      wi,
      "--to",
      "Primary",
      "--sha",
      "HEAD",
      "--path",
      `${lane}.md`,
      "--subject",
      `h${i}`,
    ]);
    assertEquals(r.code, 0, r.stderr);
    const cc = await repo.coord("Primary", ["send", wi, "--to", lane, "--subject", `reply ${i}`]);
    assertEquals(cc.code, 0, cc.stderr);
  }
}

Deno.test("coord inbox, read and status start as many git processes for 15 handoffs in 3 work items as for 3 in 1", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  counter = await gitCounter(repo.root);
  try {
    await handoffs(repo, 3, ["E001"]);
    const small = {
      inbox: await gitCount(repo, "W1", ["inbox", "E001"]),
      primary: await gitCount(repo, "Primary", ["inbox", "E001"]),
      status: await gitCount(repo, "W2", ["status"]),
    };
    await handoffs(repo, 12, ["E001", "E002", "E003"]);
    const large = {
      inbox: await gitCount(repo, "W1", ["inbox", "E001"]),
      primary: await gitCount(repo, "Primary", ["inbox", "E001"]),
      status: await gitCount(repo, "W2", ["status"]),
    };
    assertEquals(large, small);
    assertOk(large.inbox <= 8 && large.status <= 9, JSON.stringify(large));
    assertEquals(
      await gitCount(repo, "W1", ["read", "E001-M0001"]),
      await gitCount(repo, "W1", ["read", "E001-M0011"]),
    );
  } finally {
    await repo.cleanup();
  }
});
