/**
 * The filter (and merge) drivers a repository's configuration names, and the config that
 * pins each filter to none. Shared by worktree mode's land and spawn (src/worktree/
 * land_config.ts) and shared mode's filtered-id reading (src/context/content.ts): the
 * configuration lives in the shared `.git`, which a child can write.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { decodePaths, fitsArgv } from "../paths.ts";

/** The merge and filter drivers the configuration names, as git run at `top` reads it. */
export interface Drivers {
  /** Each filter driver's name (`filter.<name>.*`). */
  filters: string[];
  /** `merge.default`, when set: the driver for every path without a `merge` attribute. */
  mergeDefault?: string;
  /** Names that cannot be pinned on a command line (an `=` or a byte that is not UTF-8). */
  unpinnable: string[];
  /**
   * What `core.symlinks` says (its last value; an unreadable one counts as false), when the
   * configuration sets it: git's default is true (`git init` and `git clone` write false
   * where the file system has no links, as on most Windows set-ups).
   */
  symlinks?: boolean;
}

/**
 * A git boolean as `git config` stores it: `key` alone is true; `true`, `yes`, `on` and a
 * non-zero integer are true; `false`, `no`, `off`, `0` and the empty value are false.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals([undefined, "Yes", "off", "", "2", "maybe"].map(gitBoolean), [true, true, false, false, true, undefined]);
 * ```
 * @param value The value, or undefined for a key without `=`.
 * @returns The boolean, or undefined when git would refuse the value.
 */
export function gitBoolean(value: string | undefined): boolean | undefined {
  if (value === undefined) return true;
  const v = value.toLowerCase();
  if (v === "true" || v === "yes" || v === "on") return true;
  if (v === "false" || v === "no" || v === "off" || v === "") return false;
  return /^[+-]?\d+[kmg]?$/.test(v) ? !/^[+-]?0+[kmg]?$/.test(v) : undefined;
}

/**
 * Parse `git config -z --get-regexp` output (`key\nvalue\0` or `key\0`) into drivers.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const out = new TextEncoder().encode("filter.lfs.clean\ngit-lfs clean\0filter.a.b.smudge\nx\0merge.default\nmine\0");
 * assertEquals(parseDrivers(out), { filters: ["lfs", "a.b"], mergeDefault: "mine", unpinnable: [] });
 * const links = new TextEncoder().encode("core.symlinks\ntrue\0core.symlinks\nfalse\0");
 * assertEquals(parseDrivers(links), { filters: [], unpinnable: [], symlinks: false });
 * ```
 * @param bytes What git printed.
 * @returns The drivers named.
 */
export function parseDrivers(bytes: Uint8Array): Drivers {
  const filters = new Set<string>();
  const unpinnable: string[] = [];
  let mergeDefault: string | undefined;
  let symlinks: boolean | undefined;
  for (const record of decodePaths(bytes)) {
    const newline = record.indexOf("\n");
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? "" : record.slice(newline + 1);
    if (key === "core.symlinks") symlinks = gitBoolean(newline < 0 ? undefined : value) ?? false;
    else if (key === "merge.default") mergeDefault = value;
    else if (key.startsWith("filter.") && key.lastIndexOf(".") > "filter".length) {
      const name = key.slice("filter.".length, key.lastIndexOf("."));
      if (name.includes("=") || !fitsArgv(name)) unpinnable.push(name);
      else filters.add(name);
    }
  }
  return {
    filters: [...filters],
    ...(mergeDefault === undefined ? {} : { mergeDefault }),
    unpinnable,
    ...(symlinks === undefined ? {} : { symlinks }),
  };
}

/**
 * Read the drivers the configuration at `top` names, and `core.symlinks` (includes and
 * worktree config read as git's own calls read them).
 *
 * @param top The parent's top level.
 * @returns The drivers.
 * @throws {GitError} when git fails.
 */
export async function readDrivers(top: string): Promise<Drivers> {
  const r = await runGit(["config", "-z", "--get-regexp", "^(filter|merge)\\.|^core\\.symlinks$"], {
    cwd: top,
    parse: true,
    allowFailure: true, // exit 1: no such key
  });
  return parseDrivers(r.code === 0 ? r.stdout : new Uint8Array());
}

/**
 * The `-c` options that turn every filter driver the configuration at `top` names into
 * none, for a git call no filter may run in (status, hashing what a file holds).
 *
 * @param top The top level.
 * @returns The options ({@linkcode filterPins}).
 * @throws {Error} when a driver's name cannot go on a command line (an `=`, a byte that is
 *   not UTF-8): it cannot be turned off.
 * @throws {GitError} when git fails.
 */
export async function readFilterPins(top: string): Promise<string[]> {
  const drivers = await readDrivers(top);
  if (drivers.unpinnable.length > 0) {
    throw new Error(
      `the configuration names a filter driver that cannot be turned off: ${
        JSON.stringify(drivers.unpinnable[0])
      }`,
    );
  }
  return filterPins(drivers.filters);
}

/**
 * Config that turns each named filter driver into none: no clean, smudge or process
 * command, and not required (a required filter with no command is an error).
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(filterPins(["sm"]), [
 *   "-c", "filter.sm.clean=", "-c", "filter.sm.smudge=", "-c", "filter.sm.process=",
 *   "-c", "filter.sm.required=false",
 * ]);
 * ```
 * @param names The filter names.
 * @returns `-c` options.
 */
export function filterPins(names: readonly string[]): string[] {
  return names.flatMap((name) => [
    "-c",
    `filter.${name}.clean=`,
    "-c",
    `filter.${name}.smudge=`,
    "-c",
    `filter.${name}.process=`,
    "-c",
    `filter.${name}.required=false`,
  ]);
}
