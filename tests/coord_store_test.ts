/**
 * The store's link-claim protocol on a real file system: a taken number makes the sender
 * take the next one, nothing is overwritten, temp files are cleaned, records are
 * validated on write and on read, and acknowledgements are separate immutable records.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { seqFileName, Store } from "../src/coord/store.ts";
import type { Message } from "../src/coord/message.ts";
import { StoreError } from "../src/coord/errors.ts";
import { tempDir } from "./_helpers.ts";

function note(id: string, subject: string): Message {
  return {
    format: "coord-lite/message@1",
    id,
    work_item: id.split("-M")[0]!,
    sender: "W1",
    to: ["Primary"],
    cc: [],
    type: "NOTE",
    subject,
    body: "",
    reply_to: null,
    forward_of: null,
    provenance: null,
    time: new Date().toISOString(),
    artifact: null,
  };
}

async function withStore(fn: (store: Store, dir: string) => Promise<void>) {
  const dir = await tempDir("tether-coord-store-");
  try {
    await fn(new Store(dir), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("store numbers messages 1, 2, 3 and names files by number", async () => {
  await withStore(async (store, dir) => {
    for (const s of ["a", "b", "c"]) await store.append("E001", (id) => note(id, s));
    const files = [...Deno.readDirSync(join(dir, "coord-lite", "E001", "msgs"))].map((e) => e.name)
      .sort();
    assertEquals(files, ["000001.json", "000002.json", "000003.json"]);
    assertEquals(store.readAll("E001").map((s) => s.ok && s.message.subject), ["a", "b", "c"]);
    assertEquals(
      [...Deno.readDirSync(join(dir, "coord-lite", "E001", "tmp"))],
      [],
      "temp files unlinked",
    );
  });
});

Deno.test("store never overwrites a number another sender holds", async () => {
  await withStore(async (store, dir) => {
    await store.append("E001", (id) => note(id, "first"));
    // Another sender already holds number 2.
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    const two = JSON.stringify(note("E001-M0002", "theirs"));
    await Deno.writeTextFile(join(msgs, seqFileName(2)), two);
    const built: string[] = [];
    const m = await store.append("E001", (id) => {
      built.push(id);
      return note(id, "mine");
    });
    assertEquals(m.id, "E001-M0003");
    assertEquals(
      await Deno.readTextFile(join(msgs, seqFileName(2))),
      two,
      "the other sender's record is untouched",
    );
  });
});

Deno.test("store rebuilds the record for the next number after AlreadyExists from link", async () => {
  await withStore(async (store, dir) => {
    await store.append("E001", (id) => note(id, "first"));
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    let raced = false;
    const built: string[] = [];
    const m = await store.append("E001", (id) => {
      built.push(id);
      if (!raced) {
        // A concurrent sender links number 2 after this sender chose it.
        raced = true;
        Deno.writeTextFileSync(
          join(msgs, seqFileName(2)),
          JSON.stringify(note("E001-M0002", "theirs")),
        );
      }
      return note(id, "mine");
    });
    assertEquals(built, ["E001-M0002", "E001-M0003"]);
    assertEquals(m.id, "E001-M0003");
    const all = store.readAll("E001");
    assertEquals(all.map((s) => s.ok && s.message.subject), ["first", "theirs", "mine"]);
    assertEquals(
      [...Deno.readDirSync(join(dir, "coord-lite", "E001", "tmp"))],
      [],
      "temp files unlinked",
    );
  });
});

Deno.test("store refuses to write an invalid message and leaves no file", async () => {
  await withStore(async (store, dir) => {
    let threw = false;
    try {
      await store.append("E001", (id) => ({ ...note(id, "x"), sender: "../evil" }));
    } catch (error) {
      threw = error instanceof StoreError;
    }
    assertOk(threw, "StoreError");
    assertEquals([...Deno.readDirSync(join(dir, "coord-lite", "E001", "msgs"))], []);
  });
});

Deno.test("store readers report a corrupt record by id and keep reading the rest", async () => {
  await withStore(async (store, dir) => {
    for (const s of ["a", "b", "c", "d"]) await store.append("E001", (id) => note(id, s));
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    await Deno.writeTextFile(join(msgs, seqFileName(2)), "not json");
    await Deno.writeTextFile(join(msgs, seqFileName(3)), "");
    const all = store.readAll("E001");
    assertEquals(all.map((s) => [s.id, s.ok]), [
      ["E001-M0001", true],
      ["E001-M0002", false],
      ["E001-M0003", false],
      ["E001-M0004", true],
    ]);
    assertEquals(store.readOne("E001", 9), undefined);
  });
});

Deno.test("readers stop at the first missing slot and never read what lies beyond it", async () => {
  await withStore(async (store, dir) => {
    for (const s of ["a", "b", "c"]) await store.append("E001", (id) => note(id, s));
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    await Deno.remove(join(msgs, seqFileName(2)));
    // A valid record and an empty file planted beyond the gap.
    await Deno.writeTextFile(join(msgs, seqFileName(50)), JSON.stringify(note("E001-M0050", "x")));
    await Deno.writeTextFile(join(msgs, seqFileName(99_999_999)), "");
    const all = store.readAll("E001");
    assertEquals(all.map((s) => [s.id, s.ok]), [["E001-M0001", true], ["E001-M0002", false]]);
    const gap = all[1]!;
    assertOk(!gap.ok);
    if (!gap.ok) {
      assertEquals(
        gap.reason,
        "the record is missing: the messages end here (3 files after it, up to 99999999.json, not read)",
      );
    }
    assertEquals(store.readOne("E001", 3), undefined, "beyond the gap");
    assertEquals(store.readOne("E001", 50), undefined, "beyond the gap");
    assertEquals(store.readOne("E001", 99_999_999), undefined, "beyond the gap");
    assertOk(store.readOne("E001", 1)?.ok, "in the sequence");
  });
});

Deno.test("a sender takes the first free number, whatever lies beyond it", async () => {
  await withStore(async (store, dir) => {
    await store.append("E001", (id) => note(id, "a"));
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    await Deno.writeTextFile(join(msgs, seqFileName(99_999_999)), "");
    await Deno.writeTextFile(join(msgs, seqFileName(40)), JSON.stringify(note("E001-M0040", "x")));
    const m = await store.append("E001", (id) => note(id, "b"));
    assertEquals(m.id, "E001-M0002");
    // An occupied slot (here a FIFO) is skipped, never read and never taken.
    const fifo = await new Deno.Command("mkfifo", { args: [join(msgs, seqFileName(3))] }).output();
    assertEquals(fifo.code, 0);
    assertEquals((await store.append("E001", (id) => note(id, "c"))).id, "E001-M0004");
    assertEquals(store.readAll("E001").map((s) => [s.id, s.ok]), [
      ["E001-M0001", true],
      ["E001-M0002", true],
      ["E001-M0003", false],
      ["E001-M0004", true],
      ["E001-M0005", false],
    ]);
  });
});

Deno.test("only canonical file names are slots", async () => {
  await withStore(async (store, dir) => {
    await store.append("E001", (id) => note(id, "a"));
    const msgs = join(dir, "coord-lite", "E001", "msgs");
    // Names that spell a number otherwise than the store does are no slot.
    for (const name of ["0000002.json", "00000002.json", "000000.json", "2.json"]) {
      await Deno.writeTextFile(join(msgs, name), JSON.stringify(note("E001-M0002", "x")));
    }
    assertEquals(store.readAll("E001").map((s) => [s.id, s.ok]), [["E001-M0001", true]]);
    assertEquals(store.readOne("E001", 2), undefined);
    assertEquals((await store.append("E001", (id) => note(id, "b"))).id, "E001-M0002");
  });
});

Deno.test("store keeps an acknowledgement as its own record, once per lane, without touching the message", async () => {
  await withStore(async (store, dir) => {
    await store.append("E001", (id) => note(id, "a"));
    const file = join(dir, "coord-lite", "E001", "msgs", seqFileName(1));
    const before = await Deno.readTextFile(file);
    const ack = {
      format: "coord-lite/ack@1" as const,
      message_id: "E001-M0001",
      lane: "Primary",
      time: new Date().toISOString(),
    };
    assertEquals(await store.writeAck("E001", ack), true);
    assertEquals(await store.writeAck("E001", ack), false);
    assertEquals(await Deno.readTextFile(file), before);
    assertEquals(store.readAcks("E001").acks.get("E001-M0001"), new Set(["Primary"]));
    await Deno.writeTextFile(join(dir, "coord-lite", "E001", "acks", "E001-M0001.W1.json"), "{}");
    const { acks, corrupt } = store.readAcks("E001");
    assertEquals(corrupt, ["E001-M0001.W1"]);
    assertEquals(acks.get("E001-M0001"), new Set(["Primary"]));
  });
});
