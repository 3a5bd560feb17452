/**
 * Concurrent senders from different worktrees never lose, overwrite or duplicate a
 * message or a number, and a reader polling meanwhile never sees a partial record.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { Store } from "../src/coord/store.ts";
import { git, ROOT, run } from "./_helpers.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";

const SENDERS = 8;
const EACH = 200;
const DRIVER = join(ROOT, "tests", "_coord_send_loop.ts");

function driver(cwd: string, args: string[]) {
  return run(Deno.execPath(), [
    "run",
    "--quiet",
    "--no-prompt",
    ...PERMISSIONS.coord,
    DRIVER,
    ...args,
  ], { cwd });
}

Deno.test("coord store: 8 senders in 8 worktrees × 200 messages give 1,600 contiguous numbers, none lost or duplicated, none seen half-written", async () => {
  const repo = await makeCoordRepo();
  try {
    const extra: string[] = [];
    const dirs: Record<string, string> = { ...repo.wt };
    for (let i = 4; i < SENDERS; i++) {
      const lane = `W${i}`;
      dirs[lane] = join(repo.root, lane);
      await git(repo.wt.Primary, [
        "worktree",
        "add",
        "-q",
        "-b",
        lane.toLowerCase(),
        dirs[lane]!,
        repo.base,
      ]);
      extra.push(`lane: ${lane} ../${lane}`);
    }
    await repo.setStatus(extra.join("\n") + "\n");
    const lanes = Object.keys(dirs);
    assertEquals(lanes.length, SENDERS);

    const watcher = driver(repo.wt.W3, ["watch", "E001", String(SENDERS * EACH), "300000"]);
    const senders = lanes.map((lane) =>
      driver(dirs[lane]!, ["send", "E001", lane === "Primary" ? "W1" : "Primary", String(EACH)])
    );
    for (const r of await Promise.all(senders)) assertEquals(r.code, 0, r.stderr);
    const watched = await watcher;
    assertEquals(watched.code, 0, watched.stderr);
    const seen = JSON.parse(watched.stdout) as {
      polls: number;
      maxSeen: number;
      problems: string[];
    };
    assertEquals(seen.problems, []);
    assertOk(seen.polls > 1, "the reader polled while senders wrote");

    const commonDir = join(repo.wt.Primary, ".git");
    const store = new Store(commonDir);
    const slots = store.readAll("E001");
    assertEquals(slots.length, SENDERS * EACH);
    const subjects = new Set<string>();
    slots.forEach((slot, i) => {
      assertEquals(slot.seq, i + 1);
      assertOk(slot.ok, `${slot.id} is corrupt`);
      if (slot.ok) {
        assertEquals(slot.message.id, slot.id);
        subjects.add(slot.message.subject);
      }
    });
    assertEquals(subjects.size, SENDERS * EACH, "every (sender, number) pair exactly once");
    for (const lane of lanes) {
      for (let i = 0; i < EACH; i++) assertOk(subjects.has(`${lane} #${i}`));
    }
    const files = [...Deno.readDirSync(join(commonDir, "coord-lite", "E001", "msgs"))].map((e) =>
      e.name
    );
    assertEquals(files.length, SENDERS * EACH, "no extra or missing files");
    assertEquals(
      [...Deno.readDirSync(join(commonDir, "coord-lite", "E001", "tmp"))].length,
      0,
      "no temp file left",
    );

    const inbox = await repo.coord("Primary", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, inbox.stderr);
    assertEquals(inbox.stdout.trimEnd().split("\n").length, SENDERS * EACH);
  } finally {
    await repo.cleanup();
  }
});
