/**
 * What the next commit (the index) and the last one (HEAD) hold, judged against what the
 * worktree shows. gate observes what files hold; a child could otherwise leave content in
 * the index or in its commits that no file shows, and the parent would take it with the
 * next commit or the merge of the child's evidence. An index entry or a HEAD leaf is
 * explained when it is what the path held at spawn (in the index or in the spawn HEAD), or
 * what it holds now (the worktree, or the index for HEAD). Pure.
 *
 * @module
 */

import type { PathContent } from "../context/content.ts";
import type { StatusEntry } from "../context/porcelain.ts";
import { type ObjectFormat } from "../git_objects.ts";

/** A version of a path: its mode and object id. */
export interface Version {
  /** `100644`, `100755`, `120000` or `160000`. */
  mode: string;
  /** The blob (or commit, for a gitlink) id. */
  oid: string;
}

/** The id of the empty blob, in each object format. */
const EMPTY_BLOB: Readonly<Record<ObjectFormat, string>> = {
  sha1: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
  sha256: "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
};

/** What a path holds in one place: a version, or nothing. */
export type Held = Version | "absent";

/**
 * The index's version at spawn for a path with a status entry then (porcelain v2's `mI` and
 * `hI`), when the entry is an ordinary one: `absent` for a staged deletion, the empty blob
 * with the worktree's mode for an intent-to-add entry.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const state = `N... 100644 100644 100644 ${"a".repeat(40)} ${"b".repeat(40)}`;
 * assertEquals(spawnIndexVersion({ xy: "M.", path: "x", oid: null, state }), { mode: "100644", oid: "b".repeat(40) });
 * assertEquals(spawnIndexVersion({ xy: "??", path: "y", oid: null, state: "100644" }), undefined);
 * const ita = `N... 000000 000000 100755 ${"0".repeat(40)} ${"0".repeat(40)}`;
 * assertEquals(spawnIndexVersion({ xy: ".A", path: "z", oid: null, state: ita }), { mode: "100755", oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" });
 * const gone = `N... 100644 000000 000000 ${"a".repeat(40)} ${"0".repeat(40)}`;
 * assertEquals(spawnIndexVersion({ xy: "D.", path: "w", oid: null, state: gone }), "absent");
 * ```
 * @param entry The spawn entry, if any.
 * @param format The repository's object format.
 * @returns The version, `absent`, or undefined when the entry does not say.
 */
export function spawnIndexVersion(
  entry: StatusEntry | undefined,
  format: ObjectFormat = "sha1",
): Held | undefined {
  const fields = (entry?.state ?? "").split(" ");
  if (fields.length !== 6 || !/^[0-9a-f]+$/.test(fields[5]!)) return undefined;
  if (fields[2] === "000000") {
    if (entry?.xy[0] === "D") return "absent";
    return entry?.xy[1] === "A" ? { mode: fields[3]!, oid: EMPTY_BLOB[format] } : undefined;
  }
  return /^0+$/.test(fields[5]!) ? undefined : { mode: fields[2]!, oid: fields[5]! };
}

/**
 * What the worktree held at spawn, as the snapshot recorded it (`<mode>:<raw id>` or
 * `absent`; a special file says nothing).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(spawnWorktreeVersion({ xy: ".M", path: "x", oid: "a", content: "100644:abc" }), { mode: "100644", oid: "abc" });
 * assertEquals(spawnWorktreeVersion({ xy: ".D", path: "x", oid: null, content: "absent" }), "absent");
 * ```
 * @param entry The spawn entry, if any.
 * @returns The version, `absent`, or undefined.
 */
export function spawnWorktreeVersion(entry: StatusEntry | undefined): Held | undefined {
  const content = entry?.content;
  if (content === "absent") return "absent";
  const match = /^(\d{6}):([0-9a-f]+)$/.exec(content ?? "");
  return match ? { mode: match[1]!, oid: match[2]! } : undefined;
}

/** A mode's kind of object: a file (either exec bit), a link, a gitlink. */
function kindOf(mode: string): string {
  return mode === "120000" ? "link" : mode === "160000" ? "gitlink" : "file";
}

function same(a: Held | undefined, b: Held): boolean {
  if (a === undefined) return false;
  if (a === "absent" || b === "absent") return a === b;
  return a.mode === b.mode && a.oid === b.oid;
}

/**
 * Whether `version` (an index entry, or a HEAD leaf) is explained: equal (mode and id) to
 * one of `then` (what the path held at spawn: in HEAD, the index, the worktree), or, only
 * when the worktree still holds its spawn bytes (`unchanged`), to what it holds now: the
 * same kind of object with its raw or filtered id, and either its `lstat` mode or a mode
 * the path had at spawn (a `core.fileMode=false` checkout keeps the index's exec bit, which
 * `lstat` does not show). A worktree that changed explains nothing: it is listed itself, and
 * what it holds now must not vouch for what was committed or staged beside it (a CRLF
 * rewrite judged unchanged through a conversion, committed).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const file = (oid: string, mode = "100644") => ({ mode, oid });
 * const now = { kind: "file", mode: "100644", raw: "w", filtered: "f" } as const;
 * assertEquals(explained(file("w"), [file("h")], now, true), true);
 * assertEquals(explained(file("f"), [], now, true), true);
 * assertEquals(explained(file("w"), [file("h")], now, false), false); // the worktree changed
 * assertEquals(explained(file("w", "120000"), [file("h")], now, true), false); // a link over a file
 * assertEquals(explained(file("w", "100755"), [file("h")], now, true), false); // an exec bit only the index has
 * assertEquals(explained(file("w", "100755"), [file("h", "100755")], now, true), true);
 * assertEquals(explained("absent", [file("h")], { kind: "absent" }, true), true);
 * assertEquals(explained("absent", [file("h")], now, true), false); // committed deletion, file kept
 * ```
 * @param version The index entry or HEAD leaf, or `absent`.
 * @param then The path's versions at spawn.
 * @param now What the worktree holds now.
 * @param unchanged Whether the worktree holds the bytes it held at spawn.
 * @returns True when the spawn, or a worktree that did not change, explains it.
 */
export function explained(
  version: Held,
  then: readonly (Held | undefined)[],
  now: PathContent | undefined,
  unchanged: boolean,
): boolean {
  if (then.some((v) => same(v, version))) return true;
  if (!unchanged || now === undefined) return false; // tether:guard gate-version-unchanged
  if (version === "absent") return now.kind === "absent";
  if (now.kind === "absent" || now.kind === "special") return false;
  if (now.raw !== version.oid && now.filtered !== version.oid) return false;
  if (kindOf(now.mode) !== kindOf(version.mode)) return false; // tether:guard gate-version-mode
  return now.mode === version.mode ||
    then.some((v) => v !== undefined && v !== "absent" && v.mode === version.mode);
}
