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
 *   and (per call, {@linkcode filterPins}) every filter driver the configuration names.
 * - Refused, since no setting switches them off in git 2.39 (`<common>/info/attributes` is
 *   always read, and an attribute in a committed `.gitattributes` is the tree's): a `merge`,
 *   `ident`, `working-tree-encoding`, `filter` or `eol=crlf` attribute at a landing path
 *   ({@linkcode attributeProblem}), and a `merge.default` driver.
 *
 * @module
 */
import { type GitOptions, runGit } from "../git.ts";
import { decodePaths } from "../seed/paths.ts";
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
 * The attributes that can run a command or change bytes on a merge or checkout. `filter`
 * is among them although each driver the configuration names is pinned to none
 * ({@linkcode filterPins}): a driver written into the shared config after the land read it
 * is not pinned, so a landing path with a filter is refused outright.
 */
export const CHECKED_ATTRIBUTES: readonly string[] = [
  "merge",
  "ident",
  "working-tree-encoding",
  "eol",
  "filter",
];

/**
 * Why an attribute value at a landing path is refused, or undefined when it is harmless
 * with {@linkcode CHECKOUT_CONFIG} pinned. `check-attr` reports `set`, `unset`,
 * `unspecified` or the value. Allowed: `merge` set or unset (git's text or binary merge,
 * chosen without any lookup: the binary one only ever reports a conflict), `eol=lf`
 * (nothing is converted on checkout) and every `text` and `crlf` (with `core.eol=lf` and
 * `core.autocrlf=false`, a checkout converts nothing). Every `filter` value is refused
 * (`lfs` included: the parent's own attribute cannot be told from a planted one, and a
 * driver the config comes to name during the land would run).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(attributeProblem("merge", "union"), "merge=union");
 * assertEquals(attributeProblem("merge", "unset"), undefined);
 * assertEquals(attributeProblem("filter", "lfs"), "filter=lfs");
 * assertEquals(attributeProblem("filter", "unset"), undefined);
 * assertEquals(attributeProblem("ident", "set"), "ident");
 * assertEquals(attributeProblem("eol", "lf"), undefined);
 * assertEquals(attributeProblem("eol", "crlf"), "eol=crlf");
 * assertEquals(attributeProblem("working-tree-encoding", "UTF-16"), "working-tree-encoding=UTF-16");
 * assertEquals(attributeProblem("text", "auto"), undefined);
 * ```
 * @param name The attribute.
 * @param value What `check-attr` reports for it.
 * @returns The attribute as written (`name=value`, or `name` when set), or undefined.
 */
export function attributeProblem(name: string, value: string): string | undefined {
  if (value === "unspecified" || value === "unset") return undefined;
  switch (name) {
    case "merge": // a named driver, or a built-in one (`union`) that makes a conflict clean
      return value === "set" ? undefined : `${name}=${value}`; // tether:guard wt-attr-merge
    case "ident": // `$Id$` expanded on checkout
      return value === "set" ? name : `${name}=${value}`; // tether:guard wt-attr-ident
    case "working-tree-encoding": // re-encoded on checkout
      return value === "set" ? name : `${name}=${value}`;
    case "filter": // a smudge the config may come to name after the land read it
      return value === "set" ? name : `${name}=${value}`; // tether:guard wt-attr-filter
    case "eol": // `crlf` rewrites line ends on checkout
      return value === "lf" ? undefined : value === "set" ? name : `${name}=${value}`; // tether:guard wt-attr-eol
    default:
      return undefined;
  }
}

/**
 * The refused attributes of `git check-attr -z` output: one `path (attribute)` entry per
 * path and attribute.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode("f.txt\0merge\0union\0f.txt\0text\0auto\0g\0filter\0unset\0");
 * assertEquals(refusedAttributes(out), [{ path: "f.txt", attribute: "merge=union" }]);
 * ```
 * @param bytes What `check-attr -z` printed (path, attribute, value, each NUL-ended).
 * @returns The refused entries, in git's order.
 */
export function refusedAttributes(bytes: Uint8Array): { path: string; attribute: string }[] {
  const fields = decodePaths(bytes);
  const out: { path: string; attribute: string }[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const attribute = attributeProblem(fields[i + 1]!, fields[i + 2]!);
    if (attribute !== undefined) out.push({ path: fields[i]!, attribute });
  }
  return out;
}

/**
 * The attributes refused at `paths`, from every source the land's calls read with
 * {@linkcode CHECKOUT_CONFIG}: `<common>/info/attributes` and the `.gitattributes` files of
 * the work tree at `top`, or with `cached` those of the index `indexFile` holds (a tree
 * about to be checked out).
 *
 * @param top The parent's top level.
 * @param paths The paths to ask about.
 * @param indexFile The index to read `.gitattributes` from (with `cached`) or fall back to.
 * @param cached Read the index's `.gitattributes` only, not the work tree's.
 * @returns `path (attribute)` entries for each refused attribute.
 * @throws {GitError} when git fails.
 */
export async function attributesAt(
  top: string,
  paths: readonly string[],
  indexFile: string,
  cached: boolean,
): Promise<string[]> {
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
  return refusedAttributes(r.stdout).map((e) => `${e.path} (${e.attribute})`);
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
