/**
 * What the land's (and spawn's) merge, index and checkout calls obey, and what they refuse.
 * The configuration, `info/attributes` and `info/sparse-checkout` live in the shared `.git`,
 * which a child can write, and the parent cannot tell its own settings from planted ones
 * (it is the same file). tether reads and writes raw bytes, so these calls must write
 * exactly the bytes of the tree gate checked: no filter, no line-ending or encoding
 * conversion, no `$Id$` expansion, no merge driver, no sparse pattern, no hook.
 *
 * - Pinned on every such call ({@linkcode CHECKOUT_CONFIG}, {@linkcode CHECKOUT_ENV}): line
 *   ends, sparse checkout, merge renormalization, the global and system attribute files,
 *   and (per call, {@linkcode filterPins}) every filter driver the configuration names and
 *   every filter an attribute names at a landing path.
 * - Refused, since no setting switches them off in git 2.39 (`<common>/info/attributes` is
 *   always read, and an attribute in a committed `.gitattributes` is the tree's): `ident`,
 *   `working-tree-encoding` or `eol=crlf` at a landing path, a `merge` driver or configured
 *   `filter` where the land merges content (both sides changed the file), and a
 *   `merge.default` driver ({@linkcode judgeAttributes}, {@linkcode configProblems}).
 *
 * @module
 */
import { type GitOptions, runGit } from "../git.ts";
import { decodePaths, fitsArgv } from "../paths.ts";
import { type Drivers, filterPins } from "../context/filters.ts";

export { type Drivers, filterPins, parseDrivers, readDrivers } from "../context/filters.ts";

/**
 * Config of every merge, index and checkout call of a land or spawn: files are the tree's
 * raw bytes (no line-ending rewrite), no sparse pattern drops a file, the merge does not
 * renormalize, and only the repository's own attribute files apply (the global file is
 * `/dev/null`; the system one is off through {@linkcode CHECKOUT_ENV}).
 */
export const CHECKOUT_CONFIG: readonly string[] = [
  "-c",
  "core.autocrlf=false",
  "-c",
  "core.eol=lf",
  "-c",
  "core.sparseCheckout=false", // tether:guard wt-no-sparse
  "-c",
  "core.sparseCheckoutCone=false",
  "-c",
  "index.sparse=false",
  "-c",
  "merge.renormalize=false",
  "-c",
  "core.attributesFile=/dev/null",
  "-c",
  "core.hooksPath=/dev/null",
];

/** Environment of the same calls: no system-wide attribute file. */
export const CHECKOUT_ENV: Readonly<Record<string, string>> = { GIT_ATTR_NOSYSTEM: "1" };

/**
 * The attributes that can run a command or change bytes on a merge or checkout: what
 * {@linkcode judgeAttributes} decides on.
 */
export const CHECKED_ATTRIBUTES: readonly string[] = [
  "merge",
  "ident",
  "working-tree-encoding",
  "eol",
  "filter",
];

/** One attribute `check-attr` reported with a value at a path. */
export interface PathAttribute {
  /** The path. */
  path: string;
  /** The attribute (one of {@linkcode CHECKED_ATTRIBUTES}). */
  name: string;
  /** `set` or its value (`unspecified` and `unset` are never kept). */
  value: string;
}

/** What a land does about the attributes at its paths. */
export interface AttributeVerdict {
  /** `path (attribute)` entries that refuse the land. */
  refused: string[];
  /** Those of `refused` where both sides changed the file (a content merge a driver would do). */
  merged: string[];
  /** The filter names to pin to none on every call of the land (`filter=lfs` → `lfs`). */
  filters: string[];
}

/**
 * Decide on the attributes at a land's paths (pure). Allowed, since with
 * {@linkcode CHECKOUT_CONFIG} pinned they change no byte and run nothing: `merge` set or
 * unset (git's text or binary merge, chosen without any lookup), every `text` and `crlf`,
 * `eol=lf`, and `-filter`. Refused wherever it is:
 * `ident` (`$Id$` expanded on checkout) and `working-tree-encoding` (re-encoded), an `eol`
 * other than `lf` that would rewrite the landed bytes (`eol=crlf` on a blob with a lone LF),
 * and a filter name that cannot be pinned on a command line (an `=`, or a byte that is not
 * UTF-8).
 *
 * Refused only where both sides changed the file (`merging`: the parent's, the child's and
 * the base's contents all differ, the one case where git merges content and calls a
 * driver; where one side is unchanged git takes the other whole, with no driver):
 * a `merge` attribute naming a driver (git's `union` included), and a `filter` whose driver
 * the configuration defines (a three-way merge of what the driver keeps in the work tree is
 * the driver's business). Anywhere else a named filter lands as raw bytes, its name pinned
 * to none (`filters`), so neither the user's driver nor one a child defines during the land
 * runs: a `filter=lfs` file whose driver is not installed is plain bytes to git as well.
 *
 * @example An LFS file the child changed alone lands; a planted union merge still refuses
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const lfs = [{ path: "x.bin", name: "filter", value: "lfs" }, { path: "x.bin", name: "merge", value: "lfs" }];
 * assertEquals(judgeAttributes(lfs, { filters: [], unpinnable: [] }, new Set()), { refused: [], merged: [], filters: ["lfs"] });
 * const bat = [{ path: "gradlew.bat", name: "eol", value: "crlf" }];
 * assertEquals(judgeAttributes(bat, { filters: [], unpinnable: [] }, new Set(), new Set(["gradlew.bat"])).refused, []);
 * const union = [{ path: "f.txt", name: "merge", value: "union" }];
 * assertEquals(judgeAttributes(union, { filters: [], unpinnable: [] }, new Set(["f.txt"])).refused, ["f.txt (merge=union)"]);
 * assertEquals(judgeAttributes(bat, { filters: [], unpinnable: [] }, new Set(), new Set()).refused, ["gradlew.bat (eol=crlf)"]);
 * ```
 * @param attributes What `check-attr` reported.
 * @param drivers The configuration's drivers.
 * @param merging The paths where both sides changed the file.
 * @param lineEnds The paths whose landed blob an `eol=crlf` checkout writes as it is (no
 *   lone LF: {@linkcode crlfAsIs}); undefined before the merge, when `eol=crlf` is judged
 *   only once the landed blob is known (the merge itself converts nothing).
 * @returns The refusals and the filter names to pin.
 */
export function judgeAttributes(
  attributes: readonly PathAttribute[],
  drivers: Drivers,
  merging: ReadonlySet<string>,
  lineEnds?: ReadonlySet<string>,
): AttributeVerdict {
  const refused: string[] = [];
  const merged: string[] = [];
  const filters = new Set<string>();
  const refuse = (a: PathAttribute, both = false) => {
    const entry = `${a.path} (${a.value === "set" ? a.name : `${a.name}=${a.value}`})`;
    refused.push(entry);
    if (both) merged.push(entry);
  };
  for (const a of attributes) {
    if (a.value === "unspecified" || a.value === "unset") continue;
    switch (a.name) {
      case "merge": // a named driver, or a built-in one (`union`) that makes a conflict clean
        if (a.value !== "set" && merging.has(a.path)) refuse(a, true); // tether:guard wt-attr-merge
        break;
      case "ident": // `$Id$` expanded on checkout
        refuse(a); // tether:guard wt-attr-ident
        break;
      case "working-tree-encoding": // re-encoded on checkout
        refuse(a);
        break;
      case "eol": // `crlf` turns each lone LF into CRLF on checkout
        if (a.value === "lf" || (a.value === "crlf" && (lineEnds?.has(a.path) ?? true))) break;
        refuse(a); // tether:guard wt-attr-eol
        break;
      case "filter": // `filter` set names no driver: git converts nothing
        if (a.value === "set") break;
        if (a.value.includes("=") || !fitsArgv(a.value)) refuse(a); // tether:guard wt-attr-filter
        else if (drivers.filters.includes(a.value) && merging.has(a.path)) refuse(a, true); // tether:guard wt-attr-filter-merged
        else filters.add(a.value);
        break;
    }
  }
  return { refused, merged, filters: [...filters] };
}

/**
 * Whether an `eol=crlf` checkout writes a blob as it is: every LF in it already follows a
 * CR (git converts only a lone LF).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const bytes = (s: string) => new TextEncoder().encode(s);
 * assertEquals([crlfAsIs(bytes("a\r\nb\r\n")), crlfAsIs(bytes("a\r\nb\n")), crlfAsIs(bytes("\n"))], [true, false, false]);
 * ```
 * @param content The blob's bytes.
 * @returns True when no LF stands alone.
 */
export function crlfAsIs(content: Uint8Array): boolean {
  for (let i = content.indexOf(0x0a); i >= 0; i = content.indexOf(0x0a, i + 1)) {
    if (i === 0 || content[i - 1] !== 0x0d) return false;
  }
  return true;
}

/**
 * The attributes with a value (neither `unspecified` nor `unset`) in `git check-attr -z`
 * output.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode("f.txt\0merge\0union\0f.txt\0text\0auto\0g\0filter\0unset\0");
 * assertEquals(parseAttributes(out), [{ path: "f.txt", name: "merge", value: "union" }, { path: "f.txt", name: "text", value: "auto" }]);
 * ```
 * @param bytes What `check-attr -z` printed (path, attribute, value, each NUL-ended).
 * @returns The attributes, in git's order.
 */
export function parseAttributes(bytes: Uint8Array): PathAttribute[] {
  const fields = decodePaths(bytes);
  const out: PathAttribute[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const value = fields[i + 2]!;
    if (value !== "unspecified" && value !== "unset") {
      out.push({ path: fields[i]!, name: fields[i + 1]!, value });
    }
  }
  return out;
}

/**
 * The attributes at `paths` that {@linkcode judgeAttributes} decides on, from every source
 * the land's calls read with {@linkcode CHECKOUT_CONFIG}: `<common>/info/attributes` and the
 * `.gitattributes` files of the work tree at `top`, or with `cached` those of the index
 * `indexFile` holds (a tree about to be checked out).
 *
 * @param top The parent's top level.
 * @param paths The paths to ask about.
 * @param indexFile The index to read `.gitattributes` from (with `cached`) or fall back to.
 * @param cached Read the index's `.gitattributes` only, not the work tree's.
 * @returns The attributes with a value.
 * @throws {GitError} when git fails.
 */
export async function attributesAt(
  top: string,
  paths: readonly string[],
  indexFile: string,
  cached: boolean,
): Promise<PathAttribute[]> {
  if (paths.length === 0) return [];
  const r = await runGit(
    [
      ...CHECKOUT_CONFIG,
      "check-attr",
      "-z",
      "--stdin",
      ...(cached ? ["--cached"] : []),
      ...CHECKED_ATTRIBUTES,
    ],
    {
      cwd: top,
      parse: true,
      stdin: paths.map((p) => `${p}\0`).join(""),
      env: { ...CHECKOUT_ENV, GIT_INDEX_FILE: indexFile },
    },
  );
  return parseAttributes(r.stdout);
}

/**
 * What blocks a land before it merges or writes anything, from the configuration: a
 * `merge.default` driver, or a filter name that cannot be pinned.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(configProblems({ filters: ["lfs"], unpinnable: [] }), []);
 * assertEquals(configProblems({ filters: [], mergeDefault: "mine", unpinnable: ["a=b"] }), [
 *   "merge.default=mine (config)", "filter.a=b (config)",
 * ]);
 * ```
 * @param drivers What the configuration names.
 * @returns One entry per problem.
 */
export function configProblems(drivers: Drivers): string[] {
  return [
    ...(drivers.mergeDefault === undefined
      ? []
      : [`merge.default=${drivers.mergeDefault} (config)`]), // tether:guard wt-merge-default
    ...drivers.unpinnable.map((name) => `filter.${name} (config)`),
  ];
}

/**
 * The options of one pinned call: {@linkcode CHECKOUT_CONFIG} with the filter pins and
 * `core.symlinks` as it was read (so a flip written into the shared config since cannot
 * make git write a link as a plain file; never forced on where the repository says false,
 * as `git init` writes it on a file system without links), and {@linkcode CHECKOUT_ENV}
 * with `env`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const [args] = pinned({ filters: [], unpinnable: [], symlinks: false }, {});
 * assertEquals(args.slice(-2), ["-c", "core.symlinks=false"]);
 * ```
 * @param drivers The drivers read before the call.
 * @param options The call's options.
 * @returns Arguments to put before the subcommand, and the options with the environment.
 */
export function pinned(drivers: Drivers, options: GitOptions): [string[], GitOptions] {
  return [
    [
      ...[...CHECKOUT_CONFIG, ...filterPins(drivers.filters)], // tether:guard wt-filter-pins
      ...["-c", `core.symlinks=${drivers.symlinks !== false}`], // tether:guard wt-symlinks-pin
    ],
    { ...options, env: { ...CHECKOUT_ENV, ...options.env } },
  ];
}

/**
 * The links a land would write while `core.symlinks` is false: git would check each out as
 * a plain file holding its target, which is not the tree gate checked, so the land is
 * refused instead.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const tree = new Map([["l", { mode: "120000" }], ["f", { mode: "100644" }]]);
 * assertEquals(unwritableLinks(["l", "f"], tree, { filters: [], unpinnable: [], symlinks: false }), ["l"]);
 * assertEquals(unwritableLinks(["l", "f"], tree, { filters: [], unpinnable: [] }), []);
 * ```
 * @param paths The paths the land writes.
 * @param tree The merged tree's entries (path → mode).
 * @param drivers The configuration as read before the land.
 * @returns The links among `paths` that git would not write as links.
 */
export function unwritableLinks(
  paths: readonly string[],
  tree: ReadonlyMap<string, { mode: string }>,
  drivers: Drivers,
): string[] {
  if (drivers.symlinks !== false) return [];
  return paths.filter((p) => tree.get(p)?.mode === "120000"); // tether:guard wt-land-links
}
