/**
 * Content the index or HEAD holds that no file shows: an index entry, or a HEAD leaf (on
 * the live HEAD or the snapshot's branch), that neither what the path held at spawn nor a
 * worktree that still holds its spawn bytes explains ({@linkcode explained}). The parent
 * would take such content with its next commit or the merge, so it is a change. Pure.
 *
 * @module
 */
import { contentKey, type PathContent } from "../context/content.ts";
import type { StatusEntry } from "../context/porcelain.ts";
import type { IndexEntry } from "./staged.ts";
import type { TreePair } from "./trees.ts";
import { explained, type Held, spawnIndexVersion, spawnWorktreeVersion } from "./versions.ts";
import { type ObjectFormat } from "../git_objects.ts";

/** What explains a version of a path: what it held at spawn, and whether the file still does. */
export interface SpawnJudges {
  /** What a path held at spawn: in the spawn HEAD, in the index and in the worktree. */
  spawnVersions: (path: string) => (Held | undefined)[];
  /**
   * Whether the worktree holds the bytes it held at spawn (only then does what it holds
   * now explain an index entry or a HEAD leaf).
   */
  unchanged: (path: string) => boolean;
}

/**
 * The judges of a path's versions against the spawn.
 *
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @param spawnEntry The snapshot's status entries by path.
 * @param now What the paths hold now (read when a judge is asked).
 * @param format The repository's object format.
 * @returns The judges.
 */
export function spawnJudges(
  trees: TreePair,
  spawnEntry: ReadonlyMap<string, StatusEntry>,
  now: ReadonlyMap<string, PathContent>,
  format: ObjectFormat,
): SpawnJudges {
  return {
    spawnVersions: (path) => [
      trees.before.get(path) ?? "absent",
      spawnIndexVersion(spawnEntry.get(path), format),
      spawnWorktreeVersion(spawnEntry.get(path)),
    ],
    unchanged: (path) => {
      const content = now.get(path);
      if (content === undefined) return false;
      const record = spawnEntry.get(path)?.content;
      if (record !== undefined) return record === contentKey(content);
      const leaf = trees.before.get(path);
      if (leaf === undefined) return content.kind === "absent";
      return content.kind !== "absent" && content.kind !== "special" && content.raw === leaf.oid;
    },
  };
}

/**
 * The index entries that differ from the live HEAD and hold neither what the index held at
 * spawn nor what the worktree holds now: content the next commit would take that no file
 * shows (`git update-index --cacheinfo` with the worktree put back).
 *
 * @param staged Paths where the index differs from the live HEAD.
 * @param indexByPath The index's stage-0 entries by path.
 * @param now What the paths hold now.
 * @param judges What explains a version.
 * @returns Path → the unexplained index entry.
 */
export function unexplainedIndex(
  staged: readonly string[],
  indexByPath: ReadonlyMap<string, IndexEntry>,
  now: ReadonlyMap<string, PathContent>,
  judges: SpawnJudges,
): Map<string, Held> {
  const { spawnVersions, unchanged } = judges;
  const staging = new Map<string, Held>();
  for (const path of staged) {
    const entry = indexByPath.get(path);
    if (entry === undefined || !now.has(path)) continue;
    if (!explained(entry, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-index-content
      staging.set(path, entry);
    }
  }
  return staging;
}

/**
 * The HEAD leaves (or deletions) that changed since spawn and that neither the spawn nor an
 * unchanged worktree explains: the child's commit has content no file shows (commit, then
 * put the file back; commit a deletion, keep the file). The same for the snapshot's branch
 * when HEAD left it. Moving HEAD to other commits lists what they hold; a commit alone
 * confirms no claim, so a branch switched onto other work is not taken for the child's.
 *
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @param onBranch The spawn tree compared with the snapshot's branch, when HEAD left it.
 * @param now What the paths hold now.
 * @param judges What explains a version.
 * @returns Path → the unexplained leaf, or `absent` for a deletion.
 */
export function unexplainedCommits(
  trees: TreePair,
  onBranch: TreePair | undefined,
  now: ReadonlyMap<string, PathContent>,
  judges: SpawnJudges,
): Map<string, Held> {
  const { spawnVersions, unchanged } = judges;
  const committed = new Map<string, Held>();
  for (const path of trees.differ) {
    if (!now.has(path)) continue;
    const leaf = trees.after.get(path) ?? "absent";
    if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-commit-content
      committed.set(path, leaf);
    }
  }
  for (const path of onBranch?.differ ?? []) {
    if (!now.has(path) || committed.has(path)) continue;
    const leaf = onBranch!.after.get(path) ?? "absent";
    if (!explained(leaf, spawnVersions(path), now.get(path), unchanged(path))) { // tether:guard gate-branch-content
      committed.set(path, leaf);
    }
  }
  return committed;
}

/**
 * Drop the versions that what the paths hold now explains, once converted files' filtered
 * ids are known (`git add` of a CRLF checkout stores the blob the spawn had).
 *
 * @param held Path → an unexplained index entry or HEAD leaf; changed in place.
 * @param now What the paths hold now.
 * @param judges What explains a version.
 */
export function forgetExplained(
  held: Map<string, Held>,
  now: ReadonlyMap<string, PathContent>,
  judges: SpawnJudges,
): void {
  const { spawnVersions, unchanged } = judges;
  for (const [path, version] of held) {
    if (explained(version, spawnVersions(path), now.get(path), unchanged(path))) {
      held.delete(path);
    }
  }
}
