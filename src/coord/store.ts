/**
 * The message store: `<git common dir>/coord-lite/<WORK_ITEM>/msgs/<seq>.json` and
 * `…/acks/<MSG_ID>.<LANE>.json`, one immutable file per record.
 *
 * A record becomes visible complete or not at all: it is written to a temp file in the
 * store and fsynced, then its number is claimed with `link(tmp, <seq>.json)` (the next
 * number on `AlreadyExists`), the temp file is unlinked and the directory fsynced. A
 * number is claimed only after the one before it exists, so numbers are contiguous: the
 * messages of a work item are the slots 1, 2, … up to the first missing one. Only the
 * canonical file names ({@linkcode seqFileName}) count; a file beyond the first missing
 * slot is never read (a reader reports that the sequence ends there), and nothing about it
 * decides a sender's number or what a reader costs.
 *
 * @module
 */
import { isPermissionError } from "../cli.ts";
import { join } from "../_path.ts";
import { StoreError } from "./errors.ts";
import { readRegularFile } from "./regular_file.ts";
import { formatMessageId, isLaneName, MAX_SEQ, WORK_ITEM_PATTERN } from "./ids.ts";
import { type Ack, AckSchema, type Message, MessageSchema, parseMessage } from "./message.ts";

/** The store directory inside the git common dir. */
export const STORE_DIR = "coord-lite";

/** One slot of a work item's message sequence as a reader found it. */
export type StoredMessage =
  | { seq: number; id: string; ok: true; message: Message }
  | { seq: number; id: string; ok: false; reason: string };

const encoder = new TextEncoder();
/**
 * The largest message record a reader opens: the largest record `send` can write (a body of
 * 1 MiB, every UTF-16 unit of it escaped in JSON as six bytes, `\u0001`, plus room for the
 * subject, the recipients and an artifact's path). A bigger file is a corrupt record, never
 * read into memory; so a slot, however its file got there (a hardlink of one big file at
 * many slots included), costs a reader at most what the largest real message costs.
 */
export const MAX_RECORD_BYTES = 6 * 1024 * 1024 + 256 * 1024;

/**
 * The largest acknowledgement record a reader opens: one holds a message id, a lane name
 * and a time, some 200 bytes as `ack` writes it.
 */
export const MAX_ACK_BYTES = 4096;

/**
 * A reader was still reading the store after the time it was given (a store filled with
 * junk records): it stops instead of reading on (`coord wait` then times out).
 */
export class ReadingStopped extends Error {
  constructor() {
    super("reading the store took past the wait's deadline");
    this.name = "ReadingStopped";
  }
}

/** Which acknowledgement records {@linkcode Store.readAcks} takes into account. */
export interface AckQuery {
  /**
   * Whether an acknowledgement of this message by this lane can count at all (the lane is a
   * recipient of the message, to or cc). Any other is ignored unread: it never changes a
   * state, so nothing about it (its size, its kind) costs a reader anything.
   */
  counts?: (messageId: string, lane: string) => boolean;
  /** Read and validate the record (otherwise the file name is enough). */
  validate?: (messageId: string, lane: string) => boolean;
  /** When reading must stop (on `clock`'s scale); Infinity for never. */
  stopAt?: number;
  /** The clock. */
  clock?: () => number;
}

/** What reading one record file found. */
export type RecordFile = { ok: true; text: string } | { ok: false; reason: string } | undefined;

/**
 * Read one record file without blocking on what is there ({@linkcode readRegularFile}:
 * `lstat` first, anything but a regular file is never opened, and the file opened must be
 * the one examined).
 *
 * @param path The record's path.
 * @param maxBytes The largest size read (a bigger file is corrupt).
 * @returns The text, the reason it is corrupt, or undefined when no such file exists.
 */
export function readRecordFile(path: string, maxBytes = MAX_RECORD_BYTES): RecordFile {
  const file = readRegularFile(path, maxBytes);
  if (file === undefined || file.ok) return file;
  return { ok: false, reason: `the record ${file.reason}` };
}

/**
 * The file name of message number `seq`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(seqFileName(7), "000007.json");
 * ```
 * @param seq The message number.
 * @returns Six digits at least, then `.json`.
 */
export function seqFileName(seq: number): string {
  return `${String(seq).padStart(6, "0")}.json`;
}

/**
 * The message number a file name in `msgs/` stands for, when it is exactly the name the
 * store writes for that number; any other name stands for nothing.
 *
 * @example Only canonical names count
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(parseSeqFileName("000007.json"), 7);
 * assertEquals(parseSeqFileName("99999999.json"), 99999999);
 * assertEquals(parseSeqFileName("00000007.json"), undefined);
 * assertEquals(parseSeqFileName("000000.json"), undefined);
 * assertEquals(parseSeqFileName("7.json"), undefined);
 * ```
 * @param name A file name.
 * @returns The number, or undefined.
 */
export function parseSeqFileName(name: string): number | undefined {
  const match = /^([0-9]{6,8})\.json$/.exec(name);
  if (!match?.[1]) return undefined;
  const seq = Number(match[1]);
  if (seq < 1 || seq > MAX_SEQ) return undefined;
  return seqFileName(seq) === name ? seq : undefined; // GUARD:canonical-slot-name
}

/** A handle on the store of one repository. */
export class Store {
  /** The `coord-lite` directory. */
  readonly root: string;
  /** Per `msgs/` directory: the first number its listing lacked (see {@linkcode Store.readOne}). */
  #ends = new Map<string, number>();

  /** @param commonDir The absolute git common dir. */
  constructor(commonDir: string) {
    this.root = join(commonDir, STORE_DIR);
  }

  /**
   * The directory of one work item.
   *
   * @param workItem A validated work item id.
   * @returns Its path.
   */
  dir(workItem: string): string {
    if (!WORK_ITEM_PATTERN.test(workItem)) {
      throw new StoreError(`Invalid work item id: "${workItem}"`);
    }
    return join(this.root, workItem);
  }

  /**
   * Append a message: build it for a number, write, fsync, claim the number by link.
   *
   * @param workItem The work item.
   * @param build Makes the record for a given id (called again when a number is taken).
   * @returns The stored message.
   * @throws {StoreError} when the record is invalid or the store cannot be written.
   */
  async append(workItem: string, build: (id: string) => Message): Promise<Message> {
    const dir = this.dir(workItem);
    const msgs = join(dir, "msgs");
    const tmpDir = join(dir, "tmp");
    await ensureDir(msgs);
    await ensureDir(tmpDir);
    this.#ends.delete(msgs);
    // The first number the listing lacks: what lies beyond a gap never moves it, and a slot
    // that holds anything (a corrupt record, a FIFO) is taken, never read.
    let seq = firstGap(listSlots(msgs)); // GUARD:sender-first-gap
    while (exists(join(msgs, seqFileName(seq)))) seq++;
    for (;;) {
      if (seq > MAX_SEQ) {
        throw new StoreError(`Work item "${workItem}" has no message numbers left`);
      }
      const message = build(formatMessageId(workItem, seq));
      const checked = MessageSchema.safeParse(message);
      if (!checked.success) {
        throw new StoreError(
          `Refusing to store an invalid message: ${checked.error.issues[0]?.message ?? ""}`,
        );
      }
      const tmp = await writeTemp(tmpDir, JSON.stringify(checked.data, null, 2) + "\n");
      try {
        await Deno.link(tmp, join(msgs, seqFileName(seq)));
      } catch (error) {
        if (!(error instanceof Deno.errors.AlreadyExists)) {
          throw storeFailure("claim a message number", error);
        }
        seq++;
        while (exists(join(msgs, seqFileName(seq)))) seq++;
        continue;
      } finally {
        await Deno.remove(tmp).catch(() => {});
      }
      await syncDir(msgs);
      return checked.data;
    }
  }

  /**
   * Read every message of a work item in number order, from 1 up to the first missing
   * slot: numbers are claimed contiguously, so a gap ends the sequence. A corrupt record
   * is reported by id and hides no other. Files a listing taken before the walk shows
   * beyond the end are never read; they are reported once, as the missing slot that ends
   * the sequence (they can only be there when a record was removed or a file planted).
   *
   * @param workItem The work item.
   * @returns The slots found, numbers 1..N, then that missing slot when files lie beyond it.
   */
  readAll(workItem: string): StoredMessage[] {
    const msgs = join(this.dir(workItem), "msgs");
    const listed = listSlots(msgs);
    const out: StoredMessage[] = [];
    let seq = 1;
    for (;; seq++) {
      const slot = readSlot(msgs, workItem, seq);
      if (slot === undefined) break; // GUARD:stop-at-gap
      out.push(slot);
    }
    let beyond = 0;
    let last = 0;
    for (const n of listed) {
      if (n <= seq) continue;
      beyond++;
      last = Math.max(last, n);
    }
    if (beyond > 0) {
      out.push({
        seq,
        id: formatMessageId(workItem, seq),
        ok: false,
        reason: `the record is missing: the messages end here (${beyond} file${
          beyond === 1 ? "" : "s"
        } after it, up to ${seqFileName(last)}, not read)`,
      });
    }
    return out;
  }

  /**
   * Read one slot, without asking whether it is part of the sequence: for readers that
   * walk the numbers from 1 and stop at the first missing one.
   *
   * @param workItem The work item.
   * @param seq Its number.
   * @returns The slot, or undefined when nothing is there.
   */
  readSlot(workItem: string, seq: number): StoredMessage | undefined {
    return readSlot(join(this.dir(workItem), "msgs"), workItem, seq);
  }

  /**
   * Read one message by its number. A number past the first one the directory listing
   * lacks is beyond the end of the sequence: it is not there, whatever file holds its
   * name (one listing per work item and store handle, so one command; its cost does not
   * depend on the number asked for).
   *
   * @param workItem The work item.
   * @param seq Its number.
   * @returns The slot, or undefined when no such record exists in the sequence.
   */
  readOne(workItem: string, seq: number): StoredMessage | undefined {
    const msgs = join(this.dir(workItem), "msgs");
    let end = this.#ends.get(msgs);
    if (end === undefined) {
      end = firstGap(listSlots(msgs));
      this.#ends.set(msgs, end);
    }
    if (seq > end) return undefined; // GUARD:read-one-in-sequence
    return readSlot(msgs, workItem, seq);
  }

  /**
   * Store an acknowledgement as its own immutable record.
   *
   * @param workItem The work item.
   * @param ack The record.
   * @returns False when the lane had already acknowledged the message.
   * @throws {StoreError} when the record is invalid or cannot be written.
   */
  async writeAck(workItem: string, ack: Ack): Promise<boolean> {
    const checked = AckSchema.safeParse(ack);
    if (!checked.success) throw new StoreError("Refusing to store an invalid acknowledgement");
    const dir = this.dir(workItem);
    const acks = join(dir, "acks");
    const tmpDir = join(dir, "tmp");
    await ensureDir(acks);
    await ensureDir(tmpDir);
    const tmp = await writeTemp(tmpDir, JSON.stringify(checked.data, null, 2) + "\n");
    try {
      await Deno.link(tmp, join(acks, `${ack.message_id}.${ack.lane}.json`));
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) return false;
      throw storeFailure("store the acknowledgement", error);
    } finally {
      await Deno.remove(tmp).catch(() => {});
    }
    await syncDir(acks);
    return true;
  }

  /**
   * The acknowledgements of a work item: message id → lanes with a valid record.
   *
   * @param workItem The work item.
   * @param query Which records count, which are read and validated, and until when.
   * @returns The map, and the names of records that failed validation.
   * @throws {ReadingStopped} when the clock passes `stopAt` before the listing is done.
   */
  readAcks(workItem: string, query: AckQuery = {}): {
    acks: Map<string, Set<string>>;
    corrupt: string[];
  } {
    const counts = query.counts ?? (() => true);
    const validate = query.validate ?? (() => true);
    const stopAt = query.stopAt ?? Infinity;
    const clock = query.clock ?? (() => performance.now());
    const acks = new Map<string, Set<string>>();
    const corrupt: string[] = [];
    const dir = join(this.dir(workItem), "acks");
    let entries: Iterable<Deno.DirEntry>;
    try {
      entries = Deno.readDirSync(dir);
    } catch {
      return { acks, corrupt };
    }
    for (const entry of entries) {
      if (clock() > stopAt) throw new ReadingStopped(); // GUARD:acks-stop-reading
      const match = /^(.+-M[0-9]+)\.([^.]+)\.json$/.exec(entry.name);
      if (!match?.[1] || !match[2] || !isLaneName(match[2])) continue;
      const [, messageId, lane] = match;
      if (!counts(messageId, lane)) continue; // GUARD:ack-by-recipient
      if (validate(messageId, lane)) {
        try {
          const file = readRecordFile(join(dir, entry.name), MAX_ACK_BYTES); // GUARD:ack-size
          if (!file?.ok) throw new Error("unreadable");
          const record = AckSchema.parse(JSON.parse(file.text));
          if (record.message_id !== messageId || record.lane !== lane) throw new Error("mismatch");
        } catch {
          corrupt.push(`${messageId}.${lane}`);
          continue;
        }
      }
      const set = acks.get(messageId) ?? new Set<string>();
      set.add(lane);
      acks.set(messageId, set);
    }
    return { acks, corrupt };
  }

  /**
   * The work items that have a store directory.
   *
   * @returns Valid work item ids, sorted.
   */
  workItems(): string[] {
    const out: string[] = [];
    try {
      for (const entry of Deno.readDirSync(this.root)) {
        if (entry.isDirectory && WORK_ITEM_PATTERN.test(entry.name)) out.push(entry.name);
      }
    } catch {
      return [];
    }
    return out.sort();
  }
}

function storeFailure(what: string, error: unknown): StoreError {
  // A missing Deno permission is reported as one by the entry point, not as a store failure.
  if (isPermissionError(error)) throw error;
  const text = error instanceof Error ? error.message.split("\n")[0] : String(error);
  return new StoreError(`Cannot ${what} in the coord store: ${text}`);
}

async function ensureDir(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    throw storeFailure("create a directory", error);
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The message numbers a listing of `msgs/` shows, canonical names only (a hint, never read). */
function listSlots(msgs: string): Set<number> {
  const out = new Set<number>();
  try {
    for (const entry of Deno.readDirSync(msgs)) {
      const seq = parseSeqFileName(entry.name);
      if (seq !== undefined) out.add(seq);
    }
  } catch {
    return out;
  }
  return out;
}

/** The first number from 1 that a set lacks (its cost is the set's size, not its numbers). */
function firstGap(listed: ReadonlySet<number>): number {
  let seq = 1;
  while (listed.has(seq)) seq++;
  return seq;
}

function readSlot(msgs: string, workItem: string, seq: number): StoredMessage | undefined {
  const id = formatMessageId(workItem, seq);
  const file = readRecordFile(join(msgs, seqFileName(seq)));
  if (file === undefined) return undefined;
  if (!file.ok) return { seq, id, ok: false, reason: file.reason };
  const parsed = parseMessage(file.text, id);
  return parsed.ok
    ? { seq, id, ok: true, message: parsed.message }
    : { seq, id, ok: false, reason: parsed.reason };
}

async function writeTemp(dir: string, text: string): Promise<string> {
  const path = join(dir, `${crypto.randomUUID()}.tmp`);
  try {
    const file = await Deno.open(path, { write: true, createNew: true, mode: 0o644 });
    try {
      const bytes = encoder.encode(text);
      let written = 0;
      while (written < bytes.length) written += await file.write(bytes.subarray(written));
      await file.sync();
    } finally {
      file.close();
    }
  } catch (error) {
    await Deno.remove(path).catch(() => {});
    throw storeFailure("write a temp file", error);
  }
  return path;
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // Directories cannot be opened for fsync on every platform (Windows); the link is durable there.
  }
}
