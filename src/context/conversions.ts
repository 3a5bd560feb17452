/**
 * The conversion settings that no file in the worktree shows, recorded at spawn as one
 * digest: `core.autocrlf`, `core.eol`, `core.attributesFile`, `attr.tree` and every
 * `filter.<driver>.*` value, and the blob ids of `<common git dir>/info/attributes` and of
 * the global attributes file. A path that had no status entry at spawn held what the spawn
 * HEAD holds, and the bytes a checkout wrote for it (CRLF under `core.autocrlf=true`, UTF-16
 * under a `working-tree-encoding`, real content under a filter) differ from that blob. gate
 * can take git's reading of such a file (what `git add` would store) for the spawn's only
 * while these settings are the ones the spawn had: a child that turns a conversion off in
 * `.git/config` or `.git/info/attributes` changes no file, and would otherwise make an
 * untouched file read as changed. The attributes files in the worktree are
 * compared by gate as the files they are. A constant number of git calls.
 *
 * Not covered: a global attributes file under `$XDG_CONFIG_HOME` when `core.attributesFile`
 * is not set and git is older than 2.42 (tether runs without environment access and cannot
 * see that variable; git 2.42 names the file itself through `git var GIT_ATTR_GLOBAL`), and
 * the system attributes file.
 *
 * @module
 */
import { runGit } from "../git.ts";
import { decodePath } from "../paths.ts";
import { gitBoolean } from "./filters.ts";
import { failure } from "../git_error.ts";

const decoder = new TextDecoder();

/** The config keys whose values decide how a file is converted between blob and worktree. */
const CONVERSION_KEYS = "^(core\\.(autocrlf|eol|attributesfile)|attr\\.tree|filter\\..*)$";

/** Where git looks for the global attributes file when `core.attributesFile` is not set. */
const DEFAULT_ATTRIBUTES = "tether.defaultattributes=~/.config/git/attributes";

/** A file's blob id as git reads it (no filters), or `absent` when git cannot open it. */
async function fileId(top: string, path: string | undefined): Promise<string> {
  if (path === undefined || path === "") return "absent";
  const r = await runGit(["hash-object", "--no-filters", "--", path], {
    cwd: top,
    parse: true,
    allowFailure: true,
  });
  return r.code === 0 ? decoder.decode(r.stdout).trim() : "absent";
}

/** The conversion settings as gate compares and pins them. */
export interface ConversionSettings {
  /** `sha256:<hex>`: equal digests mean equal settings. */
  key: string;
  /**
   * `-c` options that fix `core.autocrlf` and `core.eol` at the values read, for a later
   * git call that must convert as these settings say (a child still running cannot flip
   * them in between).
   */
  pins: string[];
  /** `core.autocrlf` as read (`true`, `input`, `false`), lower case. */
  autocrlf: string;
  /** `core.eol` as read (`lf`, `crlf`, `native`), lower case. */
  eol: string;
  /** The filter drivers the config defines, where the caller has read them. */
  drivers?: ReadonlySet<string>;
}

/** The last value of `key` among `git config -z --get-regexp` records. */
function lastValue(records: readonly string[], key: string): string | undefined {
  return records.filter((r) => r.startsWith(`${key}\n`) || r === key).map((r) =>
    r.length === key.length ? "true" : r.slice(key.length + 1)
  ).pop();
}

/**
 * The conversion settings of the worktree at `top`.
 *
 * @param top The worktree's top level.
 * @param commonDir The repository's common git directory, absolute.
 * @returns The digest and the values to pin.
 * @throws {GitError} when git fails (a config it cannot read, for one).
 */
export async function readConversionSettings(
  top: string,
  commonDir: string,
): Promise<ConversionSettings> {
  const [config, global, expanded] = await Promise.all([
    runGit(["config", "-z", "--get-regexp", CONVERSION_KEYS], {
      cwd: top,
      parse: true,
      allowFailure: true, // exit 1: no such key
    }),
    runGit(["var", "GIT_ATTR_GLOBAL"], { cwd: top, parse: true, allowFailure: true }),
    // The global file's path with `~` expanded (it fails when there is no home to expand to:
    // git reads no such file then either).
    runGit([
      "-c",
      DEFAULT_ATTRIBUTES,
      "config",
      "-z",
      "--path",
      "--get-regexp",
      "^(core\\.attributesfile|tether\\.defaultattributes)$",
    ], { cwd: top, parse: true, allowFailure: true }),
  ]);
  if (config.code !== 0 && config.code !== 1) {
    throw failure(["config", "--get-regexp"], config);
  }
  const records = config.code === 0 ? decodePath(config.stdout).split("\0") : [];
  const paths = expanded.code === 0 ? decodePath(expanded.stdout).split("\0") : [];
  const setting = lastValue(records, "core.attributesfile");
  // git 2.42 names the global file itself; older ones: the setting, else the default path.
  const globalPath = global.code === 0
    ? decodePath(global.stdout).replace(/\n$/, "")
    : setting !== undefined
    ? lastValue(paths, "core.attributesfile") ?? (/^~/.test(setting) ? undefined : setting)
    : lastValue(paths, "tether.defaultattributes");
  const [info, globalId] = await Promise.all([
    fileId(top, `${commonDir}/info/attributes`),
    fileId(top, globalPath),
  ]);
  // The settings and what the files hold; not where the global file lies (a caller's home).
  const text = JSON.stringify([records, info, globalId]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const autocrlf = gitBooleanish(lastValue(records, "core.autocrlf"));
  const eol = (lastValue(records, "core.eol") ?? "native").toLowerCase();
  return {
    key: `sha256:${
      [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")
    }`,
    pins: ["-c", `core.autocrlf=${autocrlf}`, "-c", `core.eol=${eol}`],
    autocrlf,
    eol,
  };
}

/** `core.autocrlf` as git takes it: `input`, else a boolean (`false` when unset). */
function gitBooleanish(value: string | undefined): string {
  if (value === undefined) return "false";
  if (value.toLowerCase() === "input") return "input";
  return gitBoolean(value) === true ? "true" : "false";
}

/**
 * The digest of the conversion settings of the worktree at `top`, as `sha256:<hex>`.
 *
 * @param top The worktree's top level.
 * @param commonDir The repository's common git directory, absolute.
 * @returns The digest; equal digests mean equal settings.
 * @throws {GitError} when git fails.
 */
export async function readConversionKey(top: string, commonDir: string): Promise<string> {
  return (await readConversionSettings(top, commonDir)).key;
}
