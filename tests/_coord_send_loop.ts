/**
 * A test driver for the coord store under contention, run as its own process with
 * coord's exact permission flags. Starting one Deno process per message would make 1,600
 * sends take minutes, so each sender process opens its session once and then calls the
 * real `send` (validation, visibility, the store's link-claim) in a loop; the property
 * under test — numbers claimed by `link` across processes — lives entirely in the store.
 *
 * - `send <WORK_ITEM> <TO> <COUNT>`: send COUNT messages from the lane of the current dir.
 * - `watch <WORK_ITEM> <EXPECTED> <TIMEOUT_MS>`: poll the store like a reader until it
 *   holds EXPECTED messages; print a JSON summary of what it saw.
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
  while (Date.now() < deadline) {
    polls++;
    const slots = store.readAll(workItem);
    for (const slot of slots) if (!slot.ok) problems.push(`${slot.id}: ${slot.reason}`);
    if (slots.length < last) problems.push(`count went back from ${last} to ${slots.length}`);
    slots.forEach((slot, i) => {
      if (slot.seq !== i + 1) problems.push(`slot ${i} has number ${slot.seq}`);
    });
    last = slots.length;
    maxSeen = Math.max(maxSeen, slots.length);
    if (slots.length >= expected || problems.length > 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(JSON.stringify({ polls, maxSeen, problems: problems.slice(0, 10) }));
} else {
  console.error("usage: _coord_send_loop.ts send|watch …");
  Deno.exit(2);
}
