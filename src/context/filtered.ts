/**
 * Git's own reading of converted files: the conversion attributes of paths (text, eol,
 * crlf, filter, ident, working-tree-encoding) and the ids `git add` would store for them,
 * hashed with the filters pinned, so that a file git converts is compared as git compares it.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { filterPins, readDrivers } from "./filters.ts";
import { hashRegularFiles, privateIndexPath } from "./lstat.ts";
import type { PathContent } from "./content.ts";

/** The attributes that decide how `git add` converts a path. */
export interface ConversionAttributes {
  /** `ident`: `$Id: … $` is collapsed, so an edit inside one is stored as the old content. */
  ident: boolean;
  /** A `working-tree-encoding`: the bytes are re-encoded. */
  encoding: boolean;
  /** A `filter` driver: its clean command decides what is stored. */
  filter: boolean;
  /** The driver's name, when `filter` is set. */
  driver?: string;
  /** `text`, `eol` and the older `crlf`, as `git check-attr` prints them. */
  text: string;
  eol: string;
  crlf: string;
}

/**
 * The conversion attributes of `paths` as `git hash-object` reads them: one `git check-attr`
 * against an empty private index when `commonDir` is given (hash-object reads no
 * `.gitattributes` from the index, so one deleted from the worktree applies to neither).
 * `ident` and `working-tree-encoding` cannot be turned off from the command line, and
 * `<git dir>/info/attributes`, which a child can write, sets them.
 *
 * @param top The worktree's top level.
 * @param paths The paths.
 * @param commonDir The common git directory, for the empty index; without it the index's
 *   `.gitattributes` count where the worktree has none (git's check-in reading).
 * @param lineEnds Whether `text`, `eol` and `crlf` are read too (else `unspecified`).
 * @returns Each path's attributes (a path git does not list has none).
 * @throws {GitError} when git fails.
 */
export async function readConversionAttributes(
  top: string,
  paths: readonly string[],
  commonDir?: string,
  lineEnds = false,
): Promise<Map<string, ConversionAttributes>> {
  const out = new Map<string, ConversionAttributes>();
  if (paths.length === 0) return out;
  const names = ["ident", "working-tree-encoding", "filter", ...(lineEnds ? LINE_ENDS : [])];
  const r = await runGit(
    ["check-attr", "-z", "--stdin", ...names],
    {
      cwd: top,
      parse: true,
      stdin: paths.join("\0") + "\0",
      ...(commonDir === undefined ? {} : { env: { GIT_INDEX_FILE: privateIndexPath(commonDir) } }),
    },
  );
  const fields = decodePaths(r.stdout);
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const path = fields[i]!;
    const value = fields[i + 2]!;
    const set = value !== "unspecified" && value !== "unset";
    const a = out.get(path) ??
      {
        ident: false,
        encoding: false,
        filter: false,
        text: "unspecified",
        eol: "unspecified",
        crlf: "unspecified",
      };
    const name = fields[i + 1];
    if (name === "ident") a.ident = value === "set";
    else if (name === "working-tree-encoding") a.encoding = set;
    else if (name === "filter") {
      a.filter = set;
      if (set) a.driver = value;
    } else if (name === "text") a.text = value;
    else if (name === "eol") a.eol = value;
    else if (name === "crlf") a.crlf = value;
    out.set(path, a);
  }
  return out;
}

/** The line-end attributes. */
const LINE_ENDS = ["text", "eol", "crlf"];

/**
 * The ids `git add` would store for the regular files `paths`, with every filter driver the
 * config names pinned to none and `config` added: one batch of `hash-object`. Undefined when
 * the config names a filter that cannot be pinned. The caller decides which ids it may take
 * (none for a path under `ident`, {@linkcode readConversionAttributes}).
 *
 * @param top The worktree's top level.
 * @param paths Regular files.
 * @param config More `-c` options.
 * @returns Path → id, or undefined.
 */
export async function readFilteredIds(
  top: string,
  paths: readonly string[],
  config: readonly string[] = [],
): Promise<Map<string, string> | undefined> {
  if (paths.length === 0) return new Map();
  const drivers = await readDrivers(top);
  if (drivers.unpinnable.length > 0) return undefined;
  const pins = filterPins(drivers.filters); // tether:guard gate-filtered-pins
  return await hashRegularFiles(top, paths, [], Number.POSITIVE_INFINITY, [...pins, ...config]);
}

/** How {@linkcode addFilteredIds} reads. */
export interface FilteredOptions {
  /** The paths' attributes, when the caller has read them already. */
  attributes?: ReadonlyMap<string, ConversionAttributes>;
  /**
   * Whether a path under `working-tree-encoding` gets a filtered id too: only a caller that
   * knows the attributes are the ones the content was checked out with may ask (gate, when
   * the spawn's conversion settings are unchanged); git's re-encoding is then exact.
   */
  encodings?: boolean;
  /** More `-c` options for the hash (the conversion settings to convert under). */
  config?: readonly string[];
  /** The common git directory: attributes are then read as hash-object reads them. */
  commonDir?: string;
}

/**
 * Set `filtered` (the id `git add` would store) for the regular files among `paths` that
 * lack it: one batch of `hash-object` with every filter driver the config names pinned to
 * none, so a clean filter (planted in the shared `.git` or not) neither runs nor decides
 * the id, and none for a path under `ident` or (unless asked) `working-tree-encoding`
 * ({@linkcode readConversionAttributes}): only line-end normalization (and, when asked,
 * re-encoding) can make it differ from the raw id. When the
 * config names a filter that cannot be pinned, no filtered id is set (the path then reads
 * as changed, never as unchanged). Only a caller that compares with committed content
 * needs it, and only where the raw id differs.
 *
 * @param top The worktree's top level.
 * @param contents What {@linkcode readContents} returned; updated in place.
 * @param paths The paths to complete.
 * @param options Attributes read already, and whether encodings count.
 */
export async function addFilteredIds(
  top: string,
  contents: Map<string, PathContent>,
  paths: readonly string[],
  options: FilteredOptions = {},
): Promise<void> {
  const wanted = paths.filter((p) => {
    const c = contents.get(p);
    return c?.kind === "file" && c.filtered === undefined;
  });
  if (wanted.length === 0) return;
  const [drivers, attributes] = await Promise.all([
    readDrivers(top),
    options.attributes ?? readConversionAttributes(top, wanted, options.commonDir),
  ]);
  if (drivers.unpinnable.length > 0) return;
  const pins = filterPins(drivers.filters); // tether:guard ctx-filtered-pins
  const plain = wanted.filter((p) => {
    const a = attributes.get(p);
    return !a?.ident && (options.encodings === true || !a?.encoding); // tether:guard ctx-filtered-plain
  });
  const ids = await hashRegularFiles(top, plain, [], Number.POSITIVE_INFINITY, [
    ...pins,
    ...(options.config ?? []),
  ]);
  for (const path of plain) {
    const c = contents.get(path);
    const id = ids.get(path);
    if (c?.kind === "file" && id) c.filtered = id;
  }
}
