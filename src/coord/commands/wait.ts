/**
 * `coord wait`: block until the caller has at least one visible, unacknowledged message
 * addressed to it (to or cc) in a work item, then name them: exactly the ids
 * `coord inbox <WORK_ITEM> --unacked` would list at that moment.
 *
 * No daemon and no loop in the agent's shell: the one process waits on file-system events
 * in the work item's `msgs/` directory (`Deno.watchFs`), and re-checks from scratch on a
 * fixed grid every {@linkcode RECHECK_MS} (events can be lost, and a policy change such
 * as a release can make an older message visible without any file appearing). Every check
 * opens a new session, so the policy, the reflogs and the store are read afresh.
 *
 * Blindness: a check reports only what the caller may see today. A check caused by an
 * arrival ends the wait only when a message that arrival names is itself waiting for the
 * caller (see {@linkcode wakeWith}); anything else waits for the next grid check, which
 * happens whether or not anything arrived. So a message the caller may not see never ends
 * the wait, and neither the output nor the moment the wait ends depends on it.
 *
 * @module
 */
import { join } from "../../_path.ts";
import { WaitTimeoutError } from "../errors.ts";
import { formatMessageId } from "../ids.ts";
import { Session } from "../session.ts";
import { parseSeqFileName, ReadingStopped, type Store, type StoredMessage } from "../store.ts";
import { inbox } from "./inbox.ts";

export { ReadingStopped };

/** How often the wait re-checks from scratch, events or not (milliseconds). */
export const RECHECK_MS = 2000;

/** The timeout when `--timeout` is not given. */
export const DEFAULT_TIMEOUT = "10m";

/** What made a check happen. */
export type Trigger =
  /** The start, a grid re-check or the deadline: report whatever is waiting. */
  | { kind: "check" }
  /** File events in `msgs/` naming these message ids. */
  | { kind: "arrival"; ids: ReadonlySet<string> };

/** What `coord wait` returns. */
export interface WaitResult {
  /** The work item. */
  work_item: string;
  /** The caller's lane. */
  lane: string;
  /** Visible, unacknowledged messages addressed to the caller, in number order. */
  ids: string[];
}

/**
 * Decide whether a check ends the wait, and with which ids.
 *
 * A full check (the start, the fixed re-check grid, the deadline) ends it whenever anything
 * is waiting. An arrival ends it only when one of the arrived messages is itself waiting:
 * a message the caller may not see can cause a check but never an earlier return, even
 * when an older message has meanwhile become visible (that one is reported at the next
 * grid check, the same moment it would be without the hidden arrival).
 *
 * @example A hidden arrival does not end the wait early
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * const waiting = ["E001-M0002"];
 * assertEquals(wakeWith({ kind: "arrival", ids: new Set(["E001-M0003"]) }, waiting), undefined);
 * assertEquals(wakeWith({ kind: "check" }, waiting), ["E001-M0002"]);
 * assertEquals(wakeWith({ kind: "arrival", ids: new Set(["E001-M0002"]) }, waiting), ["E001-M0002"]);
 * assertEquals(wakeWith({ kind: "check" }, []), undefined);
 * ```
 * @param trigger What caused the check.
 * @param waiting The ids waiting for the caller now (visible, unacknowledged, addressed to it).
 * @returns The ids to print, or undefined to keep waiting.
 */
export function wakeWith(trigger: Trigger, waiting: readonly string[]): string[] | undefined {
  if (waiting.length === 0) return undefined;
  if (trigger.kind === "check") return [...waiting];
  const woken = waiting.some((id) => trigger.ids.has(id)); // GUARD:wait-arrival
  return woken ? [...waiting] : undefined;
}

/**
 * The ids waiting for the caller: what `inbox --unacked` lists (visible under today's
 * policy, addressed to the caller, not acknowledged by it). Corrupt records are left to
 * `inbox` and `status` to report.
 *
 * @param session A fresh session.
 * @param workItem The work item.
 * @param records The work item's records, read incrementally.
 * @param stopAt When reading the records and acknowledgements must stop (`performance.now()`
 * scale): the deadline bounds the whole check.
 * @param clock The clock.
 * @returns The ids in number order.
 * @throws {ReadingStopped} when reading the store ran past `stopAt`.
 */
export async function waitingIds(
  session: Session,
  workItem: string,
  records: Records,
  stopAt = Infinity,
  clock: () => number = () => performance.now(),
): Promise<string[]> {
  const slots = records.read(session.store, workItem, stopAt, clock);
  const found = await inbox(session, workItem, true, slots, stopAt, clock); // GUARD:wait-stop-acks
  return found.messages.map((m) => m.id);
}

/**
 * A work item's records across the checks of one wait. Messages are immutable, so a record
 * that parsed once is kept and only new numbers are read at the next check (a check over
 * 10,000 messages then costs what the new ones cost); a corrupt slot is read again every
 * time. The walk stops at the first missing number, as every reader's does (nothing beyond
 * it is read), and at a time limit (see {@linkcode ReadingStopped}). Only the records are
 * kept: visibility is decided afresh at every check.
 */
export class Records {
  #kept = new Map<number, StoredMessage>();

  /**
   * The slots 1..N as the store holds them now.
   *
   * @param store The store.
   * @param workItem The work item.
   * @param stopAt When reading must stop (on `clock`'s scale); Infinity for never.
   * @param clock The clock.
   * @returns The slots in number order.
   * @throws {ReadingStopped} when the clock passes `stopAt` before the walk ends.
   */
  read(
    store: Store,
    workItem: string,
    stopAt = Infinity,
    clock: () => number = () => performance.now(),
  ): StoredMessage[] {
    const out: StoredMessage[] = [];
    for (let seq = 1;; seq++) {
      if (clock() > stopAt) throw new ReadingStopped(); // GUARD:wait-stop-reading
      const kept = this.#kept.get(seq);
      const slot = kept ?? store.readSlot(workItem, seq);
      if (slot === undefined) break;
      if (slot.ok && !kept) this.#kept.set(seq, slot);
      out.push(slot);
    }
    return out;
  }
}

/** How long after its deadline a wait may still be reading the store (milliseconds). */
export const WAIT_GRACE_MS = 2000;

/** What the wait loop needs from the world; {@linkcode wait} gives the real one, tests a simulated one. */
export interface WaitWorld {
  /** A monotonic clock in milliseconds. */
  now(): number;
  /** One check from scratch: the ids waiting for the caller now. */
  check(): Promise<string[]>;
  /** Resolve with the next arrivals, or undefined after `ms` without any. */
  next(ms: number): Promise<ReadonlySet<string> | undefined>;
  /** Forget the arrivals so far (a full check covers them). */
  drain(): void;
}

/**
 * The wait loop: check at once, then on every arrival and on a fixed grid every
 * `recheckMs` from the start, and once more at the deadline.
 *
 * Only a full check moves the grid on: a check caused by an arrival (hidden or not) never
 * postpones or replaces a grid check, so when and with what the loop returns does not
 * depend on arrivals it does not report (beyond the time a check takes).
 *
 * @example A message that is already waiting is returned by the first check
 * ```ts
 * import { assertEquals } from "../../_assert.ts";
 * let t = 0;
 * const world = {
 *   now: () => t,
 *   check: () => Promise.resolve(["E001-M0001"]),
 *   next: (ms: number) => { t += ms; return Promise.resolve(undefined); },
 *   drain: () => {},
 * };
 * assertEquals(await waitLoop(world, 60_000), ["E001-M0001"]);
 * ```
 * @param world Clock, check and arrivals.
 * @param timeoutMs How long to wait at most; 0 checks once.
 * @param recheckMs The grid.
 * @returns The ids, or undefined when the deadline passed with nothing waiting.
 */
export async function waitLoop(
  world: WaitWorld,
  timeoutMs: number,
  recheckMs: number = RECHECK_MS,
): Promise<string[] | undefined> {
  const start = world.now();
  const deadline = start + timeoutMs;
  let nextGrid = start + recheckMs;
  let trigger: Trigger = { kind: "check" };
  for (;;) {
    const ids = wakeWith(trigger, await world.check());
    if (ids) return ids;
    let now = world.now();
    if (trigger.kind === "check") {
      if (now >= deadline) return undefined;
      while (nextGrid <= now) nextGrid += recheckMs; // GUARD:wait-grid (only full checks move it)
    }
    const due = Math.min(nextGrid, deadline);
    const arrived = now < due ? await world.next(due - now) : undefined;
    now = world.now();
    if (arrived && now < due) {
      trigger = { kind: "arrival", ids: arrived };
    } else {
      world.drain();
      trigger = { kind: "check" };
    }
  }
}

/**
 * Wait for a message: {@linkcode waitLoop} over the real store, with a new session (policy,
 * reflogs, store read afresh) at every check.
 *
 * @param cwd The caller's directory.
 * @param workItem A validated work item id.
 * @param timeoutMs How long to wait at most; 0 checks once.
 * @param timeoutText The timeout as given, for the timeout line.
 * @returns The work item, the caller's lane and the waiting ids.
 * @throws {WaitTimeoutError} when nothing was waiting by the deadline.
 * @throws {GitError | PolicyError | RefusedError | StoreError} from any check, as the other commands.
 */
export async function wait(
  cwd: string,
  workItem: string,
  timeoutMs: number,
  timeoutText: string,
): Promise<WaitResult> {
  let session: Session | undefined = await Session.open(cwd);
  let lane = session.lane;
  const arrivals = new Arrivals(join(session.store.dir(workItem), "msgs"), workItem);
  const records = new Records();
  const stopAt = performance.now() + timeoutMs + WAIT_GRACE_MS;
  const timedOut = () =>
    new WaitTimeoutError(
      `timeout: no unacknowledged message for ${lane} in ${workItem} within ${timeoutText}`,
    );
  try {
    const ids = await waitLoop({
      now: () => performance.now(),
      check: async () => {
        const current: Session = session ?? await Session.open(cwd);
        session = undefined;
        lane = current.lane;
        return await waitingIds(current, workItem, records, stopAt);
      },
      next: (ms) => arrivals.next(ms),
      drain: () => void arrivals.drain(),
    }, timeoutMs).catch((error) => {
      if (error instanceof ReadingStopped) return undefined;
      throw error;
    });
    if (ids === undefined) throw timedOut();
    return { work_item: workItem, lane, ids };
  } finally {
    arrivals.close();
  }
}

/** Message ids named by file events in a `msgs/` directory, gathered until taken. */
class Arrivals {
  #pending = new Set<string>();
  #notify: (() => void) | undefined;
  #watcher: Deno.FsWatcher | undefined;

  /**
   * Watch a directory, creating it when missing (it is the store's own; `send` would).
   * When the file system cannot create or watch it (read-only, out of watches), the grid
   * re-checks carry on alone; missing permission flags are an error, not a silent fallback.
   *
   * @param dir The work item's `msgs/` directory.
   * @param workItem The work item, to name the messages.
   * @throws {Deno.errors.NotCapable} when coord runs without the read or write permission.
   */
  constructor(dir: string, workItem: string) {
    try {
      Deno.mkdirSync(dir, { recursive: true });
      this.#watcher = Deno.watchFs(dir, { recursive: false });
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      this.#watcher = undefined;
      return;
    }
    void this.#pump(this.#watcher, workItem);
  }

  async #pump(watcher: Deno.FsWatcher, workItem: string): Promise<void> {
    try {
      for await (const event of watcher) {
        if (event.kind === "access") continue;
        for (const path of event.paths) {
          const seq = parseSeqFileName(path.split(/[\\/]/).at(-1) ?? "");
          if (seq !== undefined) this.#pending.add(formatMessageId(workItem, seq));
        }
        if (this.#pending.size > 0) this.#notify?.();
      }
    } catch {
      // The watch broke (the directory was removed, too many events): the grid re-checks remain.
    }
  }

  /** Take what arrived so far. */
  drain(): Set<string> {
    const taken = this.#pending;
    this.#pending = new Set();
    return taken;
  }

  /**
   * Resolve with the next arrivals, or undefined after `ms` without any.
   *
   * @param ms The longest wait.
   * @returns Arrived ids, or undefined.
   */
  next(ms: number): Promise<Set<string> | undefined> {
    if (this.#pending.size > 0) return Promise.resolve(this.drain());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#notify = undefined;
        resolve(undefined);
      }, ms);
      this.#notify = () => {
        clearTimeout(timer);
        this.#notify = undefined;
        resolve(this.drain());
      };
    });
  }

  /** Stop watching. */
  close(): void {
    this.#notify = undefined;
    try {
      this.#watcher?.close();
    } catch {
      // already closed
    }
  }
}
