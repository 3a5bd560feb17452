/**
 * The message store: `<git common dir>/coord-lite/<WORK_ITEM>/msgs/<seq>.json` and
 * `…/acks/<MSG_ID>.<LANE>.json`, one immutable file per record.
 *
 * A record becomes visible complete or not at all: it is written to a temp file in the
 * store and fsynced, then its number is claimed with `link(tmp, <seq>.json)` (the next
 * number on `AlreadyExists`), the temp file is unlinked and the directory fsynced. A
 * number is claimed only after the one before it exists, so numbers are contiguous and
 * readers probe them in order.
 *
 * @module
 */
import { isPermissionError } from "../cli.ts";
import { join } from "node:path";
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
 * The largest record file a reader opens: a 1 MiB body with every character escaped in
 * JSON, with room to spare. A bigger file is a corrupt record, never read into memory.
 */
export const MAX_RECORD_BYTES = 8 * 1024 * 1024;

/** What reading one record file found. */
export type RecordFile = { ok: true; text: string } | { ok: false; reason: string } | undefined;

/**
 * Read one record file without ever blocking ({@linkcode readRegularFile}: `lstat` first,
 * anything but a regular file is never opened, then `O_NOFOLLOW | O_NONBLOCK`).
 *
 * @param path The record's path.
 * @returns The text, the reason it is corrupt, or undefined when no such file exists.
 */
export function readRecordFile(path: string): RecordFile {
  const file = readRegularFile(path, MAX_RECORD_BYTES);
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

/** A handle on the store of one repository. */
export class Store {
  /** The `coord-lite` directory. */
  readonly root: string;

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
    let seq = highestListed(msgs) + 1;
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
   * Read every message of a work item in number order; a corrupt record is reported by
   * id and hides nothing else.
   *
   * @param workItem The work item.
   * @returns The slots found, numbers 1..N.
   */
  readAll(workItem: string): StoredMessage[] {
    const msgs = join(this.dir(workItem), "msgs");
    const listed = highestListed(msgs);
    const out: StoredMessage[] = [];
    for (let seq = 1;; seq++) {
      const id = formatMessageId(workItem, seq);
      const file = readRecordFile(join(msgs, seqFileName(seq)));
      if (file === undefined) {
        if (seq <= listed) {
          out.push({ seq, id, ok: false, reason: "the record is missing" });
          continue;
        }
        break;
      }
      if (!file.ok) {
        out.push({ seq, id, ok: false, reason: file.reason });
        continue;
      }
      const parsed = parseMessage(file.text, id);
      out.push(
        parsed.ok
          ? { seq, id, ok: true, message: parsed.message }
          : { seq, id, ok: false, reason: parsed.reason },
      );
    }
    return out;
  }

  /**
   * Read one message.
   *
   * @param workItem The work item.
   * @param seq Its number.
   * @returns The slot, or undefined when no such record exists.
   */
  readOne(workItem: string, seq: number): StoredMessage | undefined {
    const id = formatMessageId(workItem, seq);
    const file = readRecordFile(join(this.dir(workItem), "msgs", seqFileName(seq)));
    if (file === undefined) return undefined;
    if (!file.ok) return { seq, id, ok: false, reason: file.reason };
    const parsed = parseMessage(file.text, id);
    return parsed.ok
      ? { seq, id, ok: true, message: parsed.message }
      : { seq, id, ok: false, reason: parsed.reason };
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
   * @param validate Read and validate each record (otherwise the file name is enough).
   * @returns The map, and the names of records that failed validation.
   */
  readAcks(workItem: string, validate: (messageId: string, lane: string) => boolean = () => true): {
    acks: Map<string, Set<string>>;
    corrupt: string[];
  } {
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
      const match = /^(.+-M[0-9]+)\.([^.]+)\.json$/.exec(entry.name);
      if (!match?.[1] || !match[2] || !isLaneName(match[2])) continue;
      const [, messageId, lane] = match;
      if (validate(messageId, lane)) {
        try {
          const file = readRecordFile(join(dir, entry.name));
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

/** The highest message number a directory listing shows: a hint only, never trusted alone. */
function highestListed(msgs: string): number {
  let max = 0;
  try {
    for (const entry of Deno.readDirSync(msgs)) {
      const match = /^([0-9]{6,8})\.json$/.exec(entry.name);
      if (match?.[1]) max = Math.max(max, Number(match[1]));
    }
  } catch {
    return 0;
  }
  return max;
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
