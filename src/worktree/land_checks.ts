/**
 * What a land checks before it writes anything into the parent: that no landing path is
 * or lies in a nested repository (the child's, the parent's or the seed's), that it changes
 * only paths the child changed, that every object on those paths is the content its id
 * names, and that no file the parent's capture does not hold (an ignored file or directory)
 * is in the way.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { parseTree, readObjects } from "../gate/objects.ts";
import { decodePaths } from "../paths.ts";
import { type ObjectFormat } from "../git_objects.ts";
import { GitError } from "../git_error.ts";

/**
 * The paths a land would change that the child did not change. Without rename detection
 * a three-way merge changes the parent only where the child's tree differs from the
 * seed's, so anything else (a change carried to a renamed file) is not the child's.
 *
 * @example A rename carried the child's edit of prod.yml into dev.yml
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(outsideChanged(["dev.yml"], ["prod.yml"]), ["dev.yml"]);
 * assertEquals(outsideChanged(["a.txt"], ["a.txt", "b.txt"]), []);
 * ```
 * @param landing The paths the land would change.
 * @param changed The paths the child changed.
 * @returns The paths in `landing` and not in `changed`, in order.
 */
export function outsideChanged(landing: readonly string[], changed: readonly string[]): string[] {
  const own = new Set(changed);
  return landing.filter((p) => !own.has(p)); // tether:guard wt-land-outside
}

/**
 * The changed paths the child holds as a gitlink (mode 160000): a nested repository it
 * made, or a submodule it added, moved or moved to another commit. A land cannot carry
 * one: `read-tree -u` writes only an empty directory, and the commit may exist only in
 * the nested repository's own `.git`, which the clean-up would remove with the worktree.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const files = new Map([["n.txt", { mode: "100644", oid: "ab" }], ["sub", { mode: "160000", oid: "cd" }]]);
 * assertEquals(nestedChanged(["n.txt", "sub"], files), ["sub"]);
 * ```
 * @param changed The paths the child changed.
 * @param files The child's capture entries.
 * @returns The changed gitlink paths, in order.
 */
export function nestedChanged(
  changed: readonly string[],
  files: ReadonlyMap<string, { mode: string }>,
): string[] {
  return changed.filter((p) => files.get(p)?.mode === "160000");
}

/**
 * The directories above each path, and the paths themselves.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(withAncestors(["a/b/c", "a/d"]), ["a/b/c", "a", "a/b", "a/d"]);
 * ```
 * @param paths Paths relative to the top level.
 * @returns Each path and its ancestors, once.
 */
export function withAncestors(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const path of paths) {
    out.add(path);
    for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) out.add(path.slice(0, i));
  }
  return [...out];
}

function forged(oid: string): GitError {
  return new GitError(
    "failed",
    `object ${oid} does not hash to its name (the object store was altered): nothing landed`,
  );
}

/**
 * Check every tree on the way to each path and the object at it, in each root tree,
 * against its name (`cat-file --batch`, re-hashed in process): what the land merges and
 * writes is then the content the ids name, not what a rewritten loose object says. One
 * `cat-file` call per directory level, and one for the leaves. On the way it notes every
 * gitlink (mode 160000: a submodule or embedded repository) at a path or above one, in any
 * root: a land cannot carry one, and git's checkout deletes the nested repository's whole
 * directory when a file, link or nothing replaces it.
 *
 * @param top A directory in the repository.
 * @param format The object format.
 * @param roots Root tree ids.
 * @param paths Paths relative to the roots.
 * @returns The gitlinks at or above `paths` in any root, each once, in the order found.
 * @throws {GitError} when an object is missing or does not hash to its name.
 */
export async function verifyPaths(
  top: string,
  format: ObjectFormat,
  roots: readonly string[],
  paths: readonly string[],
): Promise<string[]> {
  // tree id → (full path → where the rest of the path below that tree starts)
  let level = new Map<string, Map<string, number>>();
  const want = (map: Map<string, Map<string, number>>, oid: string, path: string, at: number) => {
    const below = map.get(oid) ?? new Map<string, number>();
    below.set(path, at);
    map.set(oid, below);
  };
  for (const root of roots) for (const path of paths) want(level, root, path, 0);
  const leaves = new Set<string>();
  const gitlinks = new Set<string>();
  while (level.size > 0) {
    const read = await readObjects(top, [...level.keys()], format);
    const next = new Map<string, Map<string, number>>();
    for (const [oid, wanted] of level) {
      const tree = read.get(oid);
      if (tree?.kind !== "ok" || tree.type !== "tree") throw forged(oid);
      const entries = new Map(parseTree(tree.content, format).map((e) => [e.name, e]));
      for (const [path, at] of wanted) {
        const slash = path.indexOf("/", at);
        const entry = entries.get(path.slice(at, slash < 0 ? undefined : slash));
        if (entry === undefined) continue;
        if (entry.mode === "40000") {
          if (slash >= 0) want(next, entry.oid, path, slash + 1);
        } else if (entry.mode === "160000") gitlinks.add(slash < 0 ? path : path.slice(0, slash)); // tether:guard wt-land-gitlink
        else if (slash < 0) leaves.add(entry.oid);
      }
    }
    level = next;
  }
  const read = await readObjects(top, [...leaves], format);
  for (const oid of leaves) {
    const leaf = read.get(oid);
    if (leaf?.kind !== "ok" || leaf.type !== "blob") throw forged(oid); // tether:guard wt-land-hash
  }
  return [...gitlinks];
}

/**
 * Whether a directory above `path` is one of `paths`: the entry is below a path the land
 * writes or deletes (a directory the child replaced by a file or link).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(belowAny("mix/s.env", new Set(["mix", "mix/t.txt"])), true);
 * assertEquals(belowAny("mix/s.env", new Set(["mix/t.txt"])), false);
 * assertEquals(belowAny("mix", new Set(["mix"])), false);
 * ```
 * @param path A path relative to the top level.
 * @param paths Paths relative to the top level.
 * @returns True when a proper ancestor of `path` is in `paths`.
 */
export function belowAny(path: string, paths: ReadonlySet<string>): boolean {
  for (let i = path.indexOf("/"); i > 0; i = path.indexOf("/", i + 1)) {
    if (paths.has(path.slice(0, i))) return true;
  }
  return false;
}

/**
 * The files, links and directories of the parent's working tree that the parent's capture
 * does not hold (ignored ones, and the ones the user's ignore file leaves out), at a path
 * among `paths`, at a directory above one, or below one (git names such a file by its full
 * path when its directory also holds captured files, so `mix/s.env` when the child replaced
 * `mix/` by a file). `git read-tree -m -u` takes every file its index lacks and its ignore
 * rules ignore as expendable: it would overwrite or delete them.
 *
 * No ignore rule is read here: the listing is `git ls-files --others --directory` against
 * the capture's own private index (`index`, which holds exactly the parent's captured tree),
 * with no exclude option, so it names every file on disk that the capture does not hold,
 * whatever `info/exclude` or `core.excludesFile` say now. A rule a child toggles between
 * the parent's capture, this check and the checkout therefore cannot get an ignored file
 * past it: were the rules read again here, a child could un-ignore a file for this check and
 * ignore it again before the checkout, which would then overwrite or delete it. What is
 * ignored is decided once, by the capture. An empty directory is not listed (the checkout
 * writes into it, or removes it, as git does).
 *
 * One listing of the whole tree, with no pathspec: a path may hold bytes that are not UTF-8,
 * and such a path never goes through the command line (an argument cannot carry it). Every
 * name git prints is decoded exactly ({@linkcode decodePaths}) and compared as a string.
 *
 * @param top The parent's top level.
 * @param paths The paths the land would write or delete.
 * @param index The parent's capture's private index (absolute).
 * @returns The entries in the way, as git names them (a directory without its slash).
 * @throws {GitError} when git fails.
 */
export async function ignoredInTheWay(
  top: string,
  paths: readonly string[],
  index: string,
): Promise<string[]> {
  if (paths.length === 0) return [];
  const landing = new Set(paths);
  const asked = new Set(withAncestors(paths));
  const found = new Set<string>();
  const env = { GIT_INDEX_FILE: index, GIT_NO_REPLACE_OBJECTS: "1" }; // tether:guard wt-land-ignored-capture
  const listed = await runGit([
    "-c",
    "core.untrackedCache=false",
    "ls-files",
    "-z",
    "--others",
    "--directory", // tether:guard wt-land-ignored-no-rules
    "--no-empty-directory",
  ], { cwd: top, parse: true, env });
  for (const entry of decodePaths(listed.stdout)) { // tether:guard wt-land-ignored-exact
    const path = entry.replace(/\/$/, "");
    if (asked.has(path)) found.add(path); // tether:guard wt-land-ignored
    else if (belowAny(path, landing)) found.add(path); // tether:guard wt-land-ignored-below
  }
  return [...found];
}
