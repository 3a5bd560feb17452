/**
 * How a land meets the attributes and filters at its paths (see land_config.ts for the
 * rules): which paths it merges content at (the one place a merge driver runs), which filter
 * names it pins, what it says when it refuses, and what a later reading of the attributes
 * finds that the land did not allow.
 *
 * @module
 */

import { changedPaths } from "../seed/state.ts";
import type { AttributeVerdict, Drivers, PathAttribute } from "./land_config.ts";
import type { ChildWork } from "./child_work.ts";
import { listPaths } from "../show.ts";
import { GitError } from "../git_error.ts";

/** What {@linkcode unsettled} needs of a land: its pins and its decision on attributes. */
export interface SettledLand {
  /** The drivers as the land pins them (every filter name it found included). */
  drivers: Drivers;
  /** The land's decision on attributes at its paths (as before it wrote). */
  judge: (found: readonly PathAttribute[]) => Promise<AttributeVerdict>;
}

/**
 * The error of a land refused for the settings at its paths: exit 3, nothing landed. Where
 * the refusal is a content merge of a file a driver owns (both sides changed it), the line
 * says how to take one side by hand, raw, so the next land has nothing to merge there.
 *
 * @param found `path (attribute)` or `key (config)` entries.
 * @param merged Those of `found` at a path both sides changed.
 * @param childTree The child's raw tree (where its side of each path is).
 * @returns The error.
 */
export function settingsRefused(
  found: readonly string[],
  merged: readonly string[] = [],
  childTree?: string,
): GitError {
  const paths = [...new Set(merged.map((entry) => entry.replace(/ \([^()]*\)$/, "")))];
  const shell = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const take =
    paths.slice(0, 3).map((p) => `git cat-file blob ${shell(`${childTree}:${p}`)} > ${shell(p)}`)
      .join("; ") + (paths.length > 3 ? `; the same for ${listPaths(paths.slice(3))}` : "");
  const byHand = paths.length === 0 || childTree === undefined
    ? ""
    : `; ${
      listPaths(paths)
    } changed on both sides, and tether does not merge content a driver owns: keep one side by hand (to take the child's raw bytes, at the top level: ${take}; the parent's edit there is then replaced), then land again`;
  const crlf = found.filter((entry) => entry.endsWith(" (eol=crlf)")).map((entry) =>
    entry.slice(0, -" (eol=crlf)".length)
  );
  const lineEnds = crlf.length === 0
    ? ""
    : `; at ${
      listPaths(crlf)
    } git's checkout would turn each line the landed file ends with a lone LF into CRLF: end those lines with CRLF in the child (as git writes them), then land again`;
  return new GitError(
    "failed",
    `the land is refused, nothing landed: the repository's attributes or config name a merge driver, filter or conversion at ${
      listPaths(found)
    } (tether lands raw bytes and runs none of them; the shared .git, which a child can write, is one source: see docs/worktree.md)${byHand}${lineEnds}`,
  );
}

/**
 * What attributes found after the checkout (or before an undo) say that the land did not
 * allow: a refused one, or a filter whose name no pin of the land covers (it could run).
 *
 * @param found The attributes at the landed paths.
 * @param land The land.
 * @returns `path (attribute)` entries.
 */
export async function unsettled(
  found: readonly PathAttribute[],
  land: SettledLand,
): Promise<string[]> {
  const verdict = await land.judge(found);
  const loose = found.filter((a) =>
    a.name === "filter" && verdict.filters.includes(a.value) &&
    !land.drivers.filters.includes(a.value)
  ).map((a) => `${a.path} (filter=${a.value})`);
  return [...verdict.refused, ...loose];
}

/**
 * The filters the land pins: the configuration's and those attributes name at its paths.
 *
 * @param drivers The configuration's drivers.
 * @param names More filter names.
 * @returns The drivers with every name pinned.
 */
export function withFilters(drivers: Drivers, names: readonly string[]): Drivers {
  return { ...drivers, filters: [...new Set([...drivers.filters, ...names])] };
}

/**
 * The landing paths where the land merges content, asked once and only when an attribute
 * needs it (a `merge` or `filter` value): where the parent's, the child's and the merge
 * base's contents all differ, and, after a kept land, where the seed's, the parent's and the
 * record's do (what `heldPaths` of record.ts merges). Only there does git call a merge driver;
 * elsewhere it takes one side whole.
 *
 * @param top The parent's top level.
 * @param child The child.
 * @param parentTree The parent's raw tree.
 * @returns A function of the attributes found, giving those paths.
 */
export function contentMerges(
  top: string,
  child: ChildWork,
  parentTree: string,
): (found: readonly PathAttribute[]) => Promise<ReadonlySet<string>> {
  let asked: Promise<ReadonlySet<string>> | undefined;
  const seed = child.seedState.worktree;
  const childTree = child.state.worktree;
  const read = async (): Promise<ReadonlySet<string>> => {
    const base = child.record?.tree ?? seed;
    const sets = async (...pairs: [string, string][]) =>
      (await Promise.all(pairs.map(([a, b]) => changedPaths(top, a, b)))).map((l) => new Set(l));
    const [byParent, byChild, apart] = await sets(
      [base, parentTree],
      [base, childTree],
      [parentTree, childTree],
    );
    const out = new Set(
      child.landing.filter((p) => byParent!.has(p) && byChild!.has(p) && apart!.has(p)),
    );
    if (child.record !== undefined) {
      const [fromSeed, fromRecord, landed] = await sets(
        [seed, parentTree],
        [child.record.tree, parentTree],
        [seed, child.record.tree],
      );
      for (const p of child.landing) {
        if (fromSeed!.has(p) && fromRecord!.has(p) && landed!.has(p)) out.add(p);
      }
    }
    return out;
  };
  return (found) =>
    found.some((a) => a.name === "merge" || a.name === "filter")
      ? asked ??= read()
      : Promise.resolve(new Set());
}
