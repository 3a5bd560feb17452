/**
 * Whether the `.gitattributes` files that apply to a path are as they were at spawn, and
 * where one changed, whether the path's conversion is still the spawn's. Only then does
 * git's reading of a converted file (its filtered id) say what a checkout under the
 * spawn's attributes would have written.
 *
 * @module
 */
import { contentKey, type PathContent, readContents } from "../context/content.ts";
import type { ConversionSettings } from "../context/conversions.ts";
import type { StatusEntry } from "../context/porcelain.ts";
import { runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { attributeRecord, conversionOf, convertsNothing } from "./conversion_rules.ts";
import type { LiveRepo } from "./repo.ts";
import type { IndexEntry } from "./staged.ts";
import { compareTrees, type TreeLeaf, type TreePair } from "./trees.ts";
import { type Held, spawnIndexVersion } from "./versions.ts";
import { privateIndexPath } from "../context/lstat.ts";
import { type ObjectFormat } from "../git_objects.ts";

/**
 * How a path's attributes read against the spawn's: `same`, `identity` (the spawn's
 * checkout converted nothing: raw bytes tell), `auto` (the spawn's was `text=auto` alone:
 * the blob's bytes tell) or `changed`.
 */
export type AttributeReading = "same" | "identity" | "auto" | "changed";

/** What {@linkcode attributeFilesSame} compares with. */
export interface SpawnSide {
  now: Map<string, PathContent>;
  trees: TreePair;
  pair: [string | null, string | null];
  spawnEntry: ReadonlyMap<string, StatusEntry>;
  indexByPath: ReadonlyMap<string, IndexEntry>;
  dirs: { commonDir: string; format: ObjectFormat };
}

/**
 * The `.gitattributes` files whose rules can apply to `path`: one per directory above it.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(attributeFiles("a/b.txt"), [".gitattributes", "a/.gitattributes"]);
 * ```
 * @param path A path in the tree.
 * @returns The attributes files, the top level's first.
 */
export function attributeFiles(path: string): string[] {
  const parts = path.split("/");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    out.push([...parts.slice(0, i), ".gitattributes"].join("/"));
  }
  return out;
}

/**
 * Whether every `.gitattributes` whose rules can apply to a path holds, in the worktree
 * and in the index (git reads the index's when the file is absent), what it held at spawn:
 * the snapshot's record, else the spawn HEAD's leaf, else nothing. Reads the files (and
 * the spawn HEAD's leaves) the paths of interest did not bring: a bounded number of git
 * calls.
 *
 * @param repo The live repository.
 * @param paths The paths to answer for.
 * @param settings The conversion settings now (the spawn's, where this is asked).
 * @param side What the paths held at spawn and hold now.
 * @returns A test for a path.
 */
export async function attributeFilesSame(
  repo: LiveRepo,
  paths: readonly string[],
  settings: ConversionSettings,
  side: SpawnSide,
): Promise<(path: string) => AttributeReading> {
  const changed = await changedAttributeFiles(repo, paths, side);
  const same = byDirectory(changed);
  // Where one changed (an honest child may edit .gitattributes), a path is still read as at
  // spawn when its conversion attributes are what they were: the spawn's are read from the
  // spawn HEAD's tree, which held every attributes file no status entry named then; and
  // when the spawn converted nothing for it, its raw bytes tell.
  const redo = paths.filter((p) =>
    !same(p) && attributeFiles(p).every((f) => !side.spawnEntry.has(f))
  );
  if (redo.length === 0) return (path) => same(path) ? "same" : "changed";
  const { kept, identity, auto } = await compareConversions(repo, redo, settings, side);
  return (path) =>
    same(path) || kept.has(path)
      ? "same"
      : identity.has(path)
      ? "identity"
      : auto.has(path)
      ? "auto"
      : "changed";
}

/** The attributes files that apply to `paths` and hold other than at spawn (worktree or index). */
async function changedAttributeFiles(
  repo: LiveRepo,
  paths: readonly string[],
  side: SpawnSide,
): Promise<Set<string>> {
  const files = [...new Set(paths.flatMap(attributeFiles))];
  const unread = files.filter((f) => !side.now.has(f));
  const unlooked = files.filter((f) => !side.trees.before.has(f) && !side.spawnEntry.has(f));
  const [read, leaves] = await Promise.all([
    unread.length === 0
      ? new Map<string, PathContent>()
      : readContents(repo.top, side.dirs.commonDir, side.dirs.format, unread),
    unlooked.length === 0
      ? undefined
      : compareTrees(repo.top, repo.format, ...side.pair, unlooked, false),
  ]);
  const changed = new Set<string>();
  for (const file of files) {
    const current = side.now.get(file) ?? read.get(file);
    const leaf = side.trees.before.get(file) ?? leaves?.before.get(file);
    const { worktree, indexSame } = heldAsAtSpawn(file, current, leaf, side, repo.format);
    // git reads the index's copy only where the worktree has none (and hash-object never).
    if (!worktree || (!indexSame && current?.kind === "absent")) changed.add(file); // tether:guard gate-attributes-index
  }
  return changed;
}

/** Whether an attributes file holds what it held at spawn, in the worktree and in the index. */
function heldAsAtSpawn(
  file: string,
  current: PathContent | undefined,
  leaf: TreeLeaf | undefined,
  side: SpawnSide,
  format: ObjectFormat,
): { worktree: boolean; indexSame: boolean } {
  const entry = side.spawnEntry.get(file);
  const index = side.indexByPath.get(file);
  const indexNow: Held = index === undefined ? "absent" : { mode: index.mode, oid: index.oid };
  let worktree: boolean;
  let indexThen: Held | undefined;
  if (entry !== undefined) {
    worktree = current !== undefined && entry.content === contentKey(current);
    indexThen = entry.xy === "??" || entry.xy === "!!"
      ? "absent"
      : spawnIndexVersion(entry, format);
  } else {
    worktree = current !== undefined &&
      (leaf === undefined
        ? current.kind === "absent"
        : (current.kind === "file" || current.kind === "symlink") && current.raw === leaf.oid);
    indexThen = leaf ?? "absent";
  }
  const indexSame = indexThen !== undefined &&
    (indexThen === "absent" || indexNow === "absent"
      ? indexThen === indexNow
      : indexThen.mode === indexNow.mode && indexThen.oid === indexNow.oid);
  return { worktree, indexSame };
}

/** A test for a path: no attributes file that applies to it changed (once per directory). */
function byDirectory(changed: ReadonlySet<string>): (path: string) => boolean {
  // Every path's answer is asked for several times: worked out once per directory.
  const byDir = new Map<string, boolean>();
  return (path: string) => {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    let known = byDir.get(dir);
    if (known === undefined) {
      known = changed.size === 0 || attributeFiles(path).every((f) => !changed.has(f));
      byDir.set(dir, known);
    }
    return known;
  };
}

/**
 * Among `redo`, the paths whose conversion is the spawn's (`kept`), those the spawn's
 * checkout wrote as they are (`identity`) and those it wrote under `text=auto` alone (`auto`).
 */
async function compareConversions(
  repo: LiveRepo,
  redo: readonly string[],
  settings: ConversionSettings,
  side: SpawnSide,
): Promise<{ kept: Set<string>; identity: Set<string>; auto: Set<string> }> {
  const [then, now] = await Promise.all([
    spawnAttributeStates(repo.top, side.dirs.commonDir, side.pair[0], redo),
    // As hash-object reads them: no `.gitattributes` from the index, so one the child
    // deleted from the worktree alone no longer applies (an untouched CRLF file whose
    // attributes went stays unconfirmed).
    attributeStates(repo.top, redo, {
      env: { GIT_INDEX_FILE: privateIndexPath(side.dirs.commonDir) }, // tether:guard gate-attributes-no-index
    }),
  ]);
  const action = (state: Map<string, string>, p: string) => {
    const a = state.get(p);
    return a === undefined ? undefined : JSON.stringify(conversionOf(attributeRecord(a), settings));
  };
  // The same conversion, however the attributes spell it (`text` or none under
  // `core.autocrlf=true`, `-text` or `binary`).
  const kept = new Set(redo.filter((p) => action(then, p) === action(now, p)));
  const identity = new Set(
    redo.filter((p) => {
      const a = then.get(p);
      return !kept.has(p) && a !== undefined && convertsNothing(attributeRecord(a), settings);
    }),
  );
  // `text=auto` (or `core.autocrlf=true` alone) and nothing else: the checkout wrote the
  // blob as it is when git takes it for binary, which only its bytes tell.
  const auto = new Set(
    redo.filter((p) => {
      const a = then.get(p);
      if (kept.has(p) || identity.has(p) || a === undefined) return false;
      const c = conversionOf(attributeRecord(a), settings);
      return c.crlf === "auto" && !c.filter && !c.encoding && !c.ident;
    }),
  );
  return { kept, identity, auto };
}

/** The attributes that decide how git converts a path between blob and worktree. */
const CONVERSION_ATTRIBUTES = ["text", "eol", "crlf", "filter", "working-tree-encoding", "ident"];

/** Each path's conversion attributes as one comparable string: one `git check-attr`. */
async function attributeStates(
  top: string,
  paths: readonly string[],
  options: { env?: Record<string, string>; cached?: boolean },
): Promise<Map<string, string>> {
  const r = await runGit(
    [
      "check-attr",
      "-z",
      ...(options.cached ? ["--cached"] : []),
      "--stdin",
      ...CONVERSION_ATTRIBUTES,
    ],
    {
      cwd: top,
      parse: true,
      stdin: paths.join("\0") + "\0",
      ...(options.env ? { env: options.env } : {}),
    },
  );
  const fields = decodePaths(r.stdout);
  const out = new Map<string, string>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    out.set(fields[i]!, `${out.get(fields[i]!) ?? ""}${fields[i + 1]}=${fields[i + 2]};`);
  }
  return out;
}

/**
 * The conversion attributes the spawn gave `paths`, read from the spawn HEAD's tree in a
 * private index (`git read-tree`, then `git check-attr --cached`): two git calls.
 */
async function spawnAttributeStates(
  top: string,
  commonDir: string,
  tree: string | null,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const env = { GIT_INDEX_FILE: privateIndexPath(commonDir) };
  await runGit(["read-tree", ...(tree === null ? ["--empty"] : [tree])], { cwd: top, env });
  return await attributeStates(top, paths, { env, cached: true });
}
