/**
 * Which untracked paths a capture leaves out whatever the shared `.git` says: those the
 * user's own ignore file ignores. git reads that file from `core.excludesFile`, and a
 * repository's configuration (the shared `config`, which every child of a worktree spawn
 * can write) may set it to anything, `/dev/null` included; `<common>/info/exclude`, which
 * a child can write too, outranks it, so one `!.env.local` line there un-ignores the
 * user's globally ignored secret. A capture that trusted those settings would record such a
 * file in a seed and check it out into the next child: a secret the user ignores everywhere
 * would reach every later subagent through one line a child wrote.
 *
 * So every capture also asks which of its untracked paths are ignored by the rules no
 * child can write: the user's ignore file, found as git finds it but from the global and
 * system configuration only ({@linkcode trustedExcludesFile}), with the tree's own
 * `.gitignore` files, which outrank it as they do in git (a parent's `!.env.example` in
 * its `.gitignore` keeps `.env.example` carried). `info/exclude` and the repository's
 * `core.excludesFile` play no part in that answer. It is one `git ls-files --cached
 * --ignored` over the capture's own private index, whatever the number of files
 * ({@linkcode trustedIgnored}).
 *
 * @module
 */
import { isAbsolute, join } from "../_path.ts";
import { runGit } from "../git.ts";
import { decodePaths } from "../paths.ts";
import { HASH_TIMEOUT_MS } from "../context/lstat.ts";
import { GitError } from "../git_error.ts";

/** Scopes whose `core.excludesFile` a child cannot write. */
const TRUSTED_SCOPES = new Set(["system", "global"]);

/** The key whose `local` record shows git read the repository's own configuration. */
const REPOSITORY_KEY = "core.repositoryformatversion";

/**
 * Read `git config --show-scope -z --get-regexp` records (`scope\0key\nvalue\0` …): the
 * value of the last `core.excludesFile` of the system or global configuration (a value from
 * the repository, `local` or `worktree`, or the command line never counts), and whether a
 * `local` record of {@linkcode REPOSITORY_KEY} shows that git read the repository at all.
 * Without one, git answered as if outside any repository (a child can break the shared
 * `.git` for one call), and a global value under `[includeIf "gitdir:…"]` would be lost.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * const local = "local\0core.repositoryformatversion\n0\0";
 * assertEquals(trustedValue(`global\0core.excludesfile\n/h/ign\0${local}local\0core.excludesfile\n/dev/null\0`), {
 *   value: "/h/ign",
 *   repository: true,
 * });
 * assertEquals(trustedValue(`system\0core.excludesfile\n/etc/ign\0global\0core.excludesfile\n/h/ign\0`), {
 *   value: "/h/ign",
 *   repository: false,
 * });
 * assertEquals(trustedValue(local), { value: undefined, repository: true });
 * ```
 * @param records git's output, decoded.
 * @returns The value (or undefined) and whether the repository was read.
 */
export function trustedValue(records: string): { value: string | undefined; repository: boolean } {
  let value: string | undefined;
  let repository = false;
  const parts = records.split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const scope = parts[i]!;
    const record = parts[i + 1]!;
    const cut = record.indexOf("\n");
    const name = (cut < 0 ? record : record.slice(0, cut)).toLowerCase();
    const text = cut < 0 ? "" : record.slice(cut + 1);
    if (name === REPOSITORY_KEY && scope === "local") repository = true; // tether:guard excl-repository-read
    if (name === "core.excludesfile" && TRUSTED_SCOPES.has(scope)) value = text; // tether:guard excl-trusted-scope
  }
  return { value, repository };
}

/**
 * The default ignore file git reads when no configuration names one: `ignore` in
 * `$XDG_CONFIG_HOME/git` when that is set and not empty, else in `$HOME/.config/git`.
 *
 * @example
 * ```ts
 * import { assertEquals } from "../_assert.ts";
 * assertEquals(defaultExcludesFile({ XDG_CONFIG_HOME: "/x", HOME: "/h" }), "/x/git/ignore");
 * assertEquals(defaultExcludesFile({ XDG_CONFIG_HOME: "", HOME: "/h" }), "/h/.config/git/ignore");
 * assertEquals(defaultExcludesFile({}), undefined);
 * ```
 * @param env The two variables, as far as they are set.
 * @returns The path, or undefined when neither is set.
 */
export function defaultExcludesFile(
  env: { XDG_CONFIG_HOME?: string; HOME?: string },
): string | undefined {
  if (env.XDG_CONFIG_HOME) return `${env.XDG_CONFIG_HOME}/git/ignore`; // tether:guard excl-xdg
  if (env.HOME !== undefined) return `${env.HOME}/.config/git/ignore`;
  return undefined;
}

const resolved = new Map<string, Promise<string | undefined>>();

/**
 * The user's ignore file as git finds it in the worktree at `top` when the repository sets
 * nothing: the global or system `core.excludesFile` (`~` expanded), else the default
 * ({@linkcode defaultExcludesFile}). Asked where git asks it, in the repository, so that a
 * value the global configuration sets in an `[includeIf "gitdir:…"]` section applies as it
 * does for git there. Asked anywhere else, such a section does not match, and a file the
 * user ignores only for this repository would be captured and carried into every child. The
 * repository's own records (`local`, `worktree`, and what they include) are dropped by
 * scope. Read once per top level and process, in one git call, so every capture of one run
 * reads the same file. An empty value names no file, as in git.
 *
 * @param top The worktree's top level.
 * @returns The path (relative values as written), or undefined.
 * @throws {GitError} when the configuration cannot be read.
 */
export function trustedExcludesFile(top: string): Promise<string | undefined> {
  let known = resolved.get(top);
  if (known) return known;
  known = (async () => {
    const read = await runGit(
      [
        "config",
        "--show-scope",
        "-z",
        "--type=path",
        "--get-regexp",
        `^(core\\.excludesfile|${REPOSITORY_KEY.replace(".", "\\.")})$`,
      ],
      { cwd: top, allowFailure: true, traceEnv: ["XDG_CONFIG_HOME", "HOME"] }, // tether:guard excl-in-repo
    );
    if (read.code !== 0 && read.code !== 1) { // 1: no value set
      throw new GitError(
        "failed",
        `cannot read the global configuration: ${read.stderr.trim().split("\n")[0]}`,
      );
    }
    const { value: configured, repository } = trustedValue(new TextDecoder().decode(read.stdout));
    if (!repository) {
      throw new GitError(
        "failed",
        `cannot read the repository's configuration at ${top} (git found no ${REPOSITORY_KEY} ` +
          "there), so the user's ignore file cannot be found as git finds it there; a repository " +
          `without that setting gets it with \`git config ${REPOSITORY_KEY} 0\``,
      );
    }
    const file = configured ?? defaultExcludesFile(read.traced ?? {});
    return file === "" ? undefined : file;
  })();
  resolved.set(top, known);
  return known;
}

const readable = new Map<string, Promise<boolean>>();

/** Whether git can read the file at all (git reads a missing ignore file as empty). */
function exists(file: string): Promise<boolean> {
  let known = readable.get(file);
  if (known === undefined) {
    known = runGit(["hash-object", "--no-filters", "--", file], {
      ...(Deno.build.os === "windows" ? {} : { cwd: "/" }),
      allowFailure: true,
    }).then((r) => r.code === 0);
    readable.set(file, known);
  }
  return known;
}

/**
 * The user's ignore file for a capture of the worktree at `top`, when git can read it: a
 * relative value is read from the top level, as git reads it.
 *
 * @param top The worktree's top level.
 * @returns The absolute path, or undefined (no file, or none git can read).
 */
export async function excludesFileAt(top: string): Promise<string | undefined> {
  const file = await trustedExcludesFile(top);
  if (file === undefined) return undefined;
  const absolute = isAbsolute(file) ? file : join(top, file);
  return await exists(absolute) ? absolute : undefined;
}

/**
 * The paths of a private index that the user's ignore file ignores, read with that file
 * and the worktree's `.gitignore` files alone (`ls-files --cached --ignored
 * --exclude-from=FILE --exclude-per-directory=.gitignore`: git's own matching and
 * precedence, a directory pattern covering what lies below it), never with `info/exclude`
 * or the repository's `core.excludesFile`. One git process.
 *
 * @param top The worktree's top level.
 * @param file The ignore file ({@linkcode excludesFileAt}).
 * @param config `-c` settings for the call.
 * @param env The environment selecting the private index.
 * @returns The ignored paths among the index's entries.
 * @throws {GitError} when git fails.
 */
export async function trustedIgnored(
  top: string,
  file: string,
  config: readonly string[],
  env: Record<string, string>,
): Promise<Set<string>> {
  const listed = await runGit([
    ...config,
    "ls-files",
    "-z",
    "--cached",
    "--ignored",
    `--exclude-from=${file}`,
    "--exclude-per-directory=.gitignore",
  ], { cwd: top, env, parse: true, timeoutMs: HASH_TIMEOUT_MS }); // a FIFO named .gitignore
  return new Set(decodePaths(listed.stdout));
}

/**
 * Refuse a spawn whose capture left paths out ({@linkcode leftOutMessage}); nothing when
 * it left none.
 *
 * @param left The paths the capture left out.
 * @param top The top level of the worktree captured.
 * @throws {GitError} when there is one.
 */
export async function refuseLeftOut(left: ReadonlySet<string>, top: string): Promise<void> {
  if (left.size === 0) return;
  throw new GitError("failed", leftOutMessage([...left].sort(), await trustedExcludesFile(top)));
}

/**
 * The refusal of a spawn whose capture left paths out: git's status shows them, so the
 * repository's settings un-ignore what the user's ignore file ignores.
 *
 * @param paths The paths left out (at least one).
 * @param file The ignore file.
 * @returns The one-line message.
 */
export function leftOutMessage(paths: readonly string[], file: string | undefined): string {
  const shown = paths.slice(0, 5).map((p) => JSON.stringify(p)).join(", ") +
    (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
  return `The user's ignore file ${
    file ?? "(core.excludesFile)"
  } ignores ${shown}, but the repository's settings do not (core.excludesFile in the shared config, or a ! line in info/exclude, which a child can write): nothing is carried, no worktree made; remove that setting, or add the file to the tree's .gitignore with a ! line if it is meant to be carried`;
}
