/**
 * A test driver for the coord store under contention, run as its own process with
 * coord's exact permission flags. Starting one Deno process per message would make 1,600
 * sends take minutes, so each sender process opens its session once and then calls the
 * real `send` (validation, visibility, the store's link-claim) in a loop; the property
 * under test — numbers claimed by `link` across processes — lives entirely in the store.
 *
 * - `send <WORK_ITEM> <TO> <COUNT>`: send COUNT messages from the lane of the current dir.
 * - `watch <WORK_ITEM> <EXPECTED> <TIMEOUT_MS>`: poll the store like a reader until it
 *   holds EXPECTED messages, reading each record as it appears; print a JSON summary of
 *   what it saw.
 *
 * @module
 */
import { Session } from "../src/coord/session.ts";
import { send } from "../src/coord/commands/send.ts";
import { discoverWorktree } from "../src/coord/worktree.ts";
import { Store } from "../src/coord/store.ts";

const [mode, workItem = "", arg1 = "", arg2 = ""] = Deno.args;
if (mode === "send") {
  const session = await Session.open(Deno.cwd());
  const count = Number(arg2);
  for (let i = 0; i < count; i++) {
    await send(session, {
      workItem,
      to: [arg1],
      cc: [],
      type: "NOTE",
      subject: `${session.lane} #${i}`,
      body: `${session.lane} message ${i}\n${"x".repeat(2000)}\n`,
      replyTo: undefined,
      forward: undefined,
      provenance: null,
    });
  }
} else if (mode === "watch") {
  const found = discoverWorktree(Deno.cwd());
  if (!found) throw new Error("not in a worktree");
  const store = new Store(found.commonDir);
  const expected = Number(arg1);
  const deadline = Date.now() + Number(arg2);
  const problems: string[] = [];
  let polls = 0;
  let last = 0;
  let maxSeen = 0;
  // Each poll reads the records that appeared since the last one, and reads again the last
  // RECENT before them, where a write still in flight would show: every record is looked at
  // as it appears, without a poll costing more as the store grows.
  const RECENT = 50;
  while (Date.now() < deadline) {
    polls++;
    let seq = Math.max(1, last - RECENT + 1);
    for (;; seq++) {
      const slot = store.readSlot(workItem, seq);
      if (slot === undefined) break;
      if (!slot.ok) problems.push(`${slot.id}: ${slot.reason}`);
      if (slot.seq !== seq) problems.push(`slot ${seq - 1} has number ${slot.seq}`);
    }
    const count = seq - 1;
    if (count < last) problems.push(`count went back from ${last} to ${count}`);
    last = count;
    maxSeen = Math.max(maxSeen, count);
    if (count >= expected || problems.length > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(JSON.stringify({ polls, maxSeen, problems: problems.slice(0, 10) }));
} else {
  console.error("usage: _coord_send_loop.ts send|watch …");
  Deno.exit(2);
}
