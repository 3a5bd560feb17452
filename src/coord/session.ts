/**
 * One command's view of the world: the repository and caller's lane, the store, and the
 * visibility of messages to the caller under today's policy. Git is asked a bounded
 * number of times per command: reflogs once, history once per set of commits.
 *
 * @module
 */
import { openRepo, type Repo } from "./identity.ts";
import { readOwnership } from "./ownership.ts";
import { loadHistory } from "./history.ts";
import { Store } from "./store.ts";
import {
  canInspect,
  canInspectMissing,
  type History,
  messageVisible,
  type Ownership,
} from "./visibility.ts";
import type { Message } from "./message.ts";
import { parseMessageIdOrUndefined } from "./ids.ts";
import { PRIMARY } from "./policy.ts";

/** The caller's view for one command. */
export class Session {
  /** The repository and the caller's lane. */
  readonly repo: Repo;
  /** The message store. */
  readonly store: Store;
  #owners: Promise<Ownership> | undefined;

  /**
   * @param repo The opened repository.
   */
  constructor(repo: Repo) {
    this.repo = repo;
    this.store = new Store(repo.commonDir);
  }

  /**
   * Open a session in a directory.
   *
   * @param cwd The caller's directory.
   * @returns The session.
   * @throws {GitError | PolicyError | RefusedError} as {@linkcode openRepo}.
   */
  static async open(cwd: string): Promise<Session> {
    return new Session(await openRepo(cwd));
  }

  /** The caller's lane. */
  get lane(): string {
    return this.repo.lane;
  }

  /**
   * Commit → lane from every lane's HEAD reflog (read once per command).
   *
   * @returns The ownership map, and whether every reflog was read reliably.
   */
  owners(): Promise<Ownership> {
    this.#owners ??= readOwnership(
      this.repo.at,
      this.repo.worktrees,
      this.repo.unownedReflogs,
      this.repo.commonDir,
    );
    return this.#owners;
  }

  /**
   * An inspector for a set of commits: one history load, then pure decisions for any lane.
   *
   * @param commits Full commit ids.
   * @returns `exists` (the commit is in the repository) and `inspect` (lane × commit →
   * may inspect; a missing commit is decided by {@linkcode canInspectMissing}).
   */
  async inspector(commits: readonly string[]): Promise<Inspector> {
    if (commits.length === 0) return { exists: () => false, inspect: () => false };
    const owners = await this.owners();
    const memos = new Map<string, Map<string, boolean>>();
    const memoFor = (lane: string) => {
      let memo = memos.get(lane);
      if (!memo) memos.set(lane, memo = new Map());
      return memo;
    };
    const history: History = await loadHistory(this.repo.at, this.repo.policy, commits, owners);
    return {
      exists: (commit) => history.commits.has(commit),
      inspect: (lane, commit) =>
        history.commits.has(commit)
          ? canInspect(this.repo.policy, lane, commit, history, memoFor(lane))
          : canInspectMissing(this.repo.policy, lane, commit, owners),
    };
  }

  /**
   * Decide which messages of a work item a reader may see today.
   *
   * @param reader The reading lane.
   * @param candidates Messages the reader might see (others are looked up on demand).
   * @param lookup Finds a message of the work item by id (for forwarded originals).
   * @returns id → visible to the reader.
   */
  async visibility(
    reader: string,
    candidates: readonly Message[],
    lookup: (id: string) => Message | undefined,
  ): Promise<(id: string) => boolean> {
    const policy = this.repo.policy;
    const related = new Map<string, Message>();
    const collect = (m: Message, depth: number) => {
      if (related.has(m.id) || depth > 64) return;
      related.set(m.id, m);
      const original = m.forward_of === null ? undefined : lookup(m.forward_of);
      if (original) collect(original, depth + 1);
    };
    for (const m of candidates) {
      if (m.sender === reader || m.to.includes(reader) || m.cc.includes(reader)) collect(m, 0);
    }
    const commits = [...related.values()].flatMap((m) => m.artifact ? [m.artifact.commit] : []);
    // Primary may inspect everything, present or gone: no git call is needed for its view.
    const { inspect } = reader === PRIMARY
      ? { inspect: () => true }
      : await this.inspector(commits);
    const memo = new Map<string, boolean>();
    const visible = (id: string, depth: number): boolean => {
      const known = memo.get(id);
      if (known !== undefined) return known;
      const m = related.get(id) ?? lookup(id);
      let result = false;
      if (m && depth <= 64) {
        const original = parseMessageIdOrUndefined(m.forward_of ?? "");
        const own = parseMessageIdOrUndefined(m.id)?.seq ?? 0;
        result = messageVisible(
          policy,
          reader,
          m,
          (commit) => inspect(reader, commit),
          (id) => original !== undefined && original.seq < own && visible(id, depth + 1),
        );
      }
      memo.set(id, result);
      return result;
    };
    return (id) => visible(id, 0);
  }
}

/** Decisions about a loaded set of commits. */
export interface Inspector {
  /** Whether the commit exists in the repository. */
  exists: (commit: string) => boolean;
  /** Whether a lane may inspect the commit. */
  inspect: (lane: string, commit: string) => boolean;
}
