/**
 * The directories of a spawn: each one's real path as the kernel reaches it (nothing folded
 * lexically), the refusal of one inside the parent's working tree that git does not
 * ignore, and which of them git will create (so a failed spawn removes exactly those).
 * Everything is asked of git: tether has no file access.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve, rootOf } from "../_path.ts";
import { gitText, runGit } from "../git.ts";
import { GitError } from "../git_error.ts";

/** Whether a directory exists, asked of git (tether has no file access). */
export async function dirExists(dir: string): Promise<boolean> {
  const r = await runGit(["rev-parse", "--is-inside-work-tree"], {
    cwd: dir,
    parse: true,
    allowFailure: true,
    neutralStart: true,
  });
  return !/cannot change to/.test(r.stderr);
}

/**
 * The directories `git worktree add` will create for `dirs` (real paths: each missing
 * directory and its missing ancestors), deepest first, so a failed spawn can remove them
 * again.
 */
export async function missingDirs(dirs: readonly string[]): Promise<string[]> {
  // Every directory walks up at once; each one above them is asked about once.
  const asked = new Map<string, Promise<boolean>>();
  const exists = (dir: string) => {
    let probe = asked.get(dir);
    if (probe === undefined) asked.set(dir, probe = dirExists(dir));
    return probe;
  };
  const missing = new Set<string>();
  await Promise.all(dirs.map(async (dir) => {
    for (let d = dir; d !== dirname(d); d = dirname(d)) {
      if (await exists(d)) break;
      missing.add(d);
    }
  }));
  return [...missing].sort((a, b) => b.length - a.length);
}

/**
 * What git said of each directory it was started in, by path as spelled: its real path, or
 * `undefined` when git could not start there (it does not exist). Kept for one spawn, so
 * the children of one `--count` (`DIR/1` … `DIR/N`) ask about `DIR` and above once.
 */
type Probes = Map<string, Promise<string | undefined>>;

/**
 * A path's nearest existing directory, real (links followed), asked of git: tether has no
 * file access. Each directory from `absolute` up is tried with git started in it (a work
 * tree of `.` is made absolute and real); the missing rest is returned as spelled.
 */
async function realPrefix(
  absolute: string,
  gitDir: string,
  probes: Probes,
): Promise<[string, string[]]> {
  const rest: string[] = [];
  for (let d = absolute;; d = dirname(d)) {
    let probe = probes.get(d);
    if (probe === undefined) {
      probe = runGit(
        [`--git-dir=${gitDir}`, "--work-tree=.", "rev-parse", "--show-toplevel"],
        { cwd: d, parse: true, allowFailure: true },
      ).then((r) => {
        const real = new TextDecoder().decode(r.stdout).replace(/\n$/, "");
        return r.code === 0 && isAbsolute(real) ? real : undefined;
      });
      probes.set(d, probe);
    }
    const real = await probe;
    if (real !== undefined) return [real, rest];
    if (d === dirname(d)) return [d, rest];
    rest.unshift(basename(d));
  }
}

/** Separators of a path as written. */
const SEPARATORS = Deno.build.os === "windows" ? /[\\/]/ : /\//;

/**
 * A directory's real path as the kernel will reach it, with nothing folded lexically: the
 * path is walked as written, and a `..` goes up from the real path of what precedes it
 * (`elsewhere/link/../kids` is beside the link's target), or drops a component that does
 * not exist yet (which has no link to follow). The result is real up to its first missing
 * component, holds no `..`, and is what spawn checks, creates and gives to git.
 *
 * @param dir The directory as given (relative to the current directory or absolute).
 * @param gitDir The parent's git directory (git is started with it, never the child's).
 * @returns The real path, with the missing rest appended as spelled.
 */
async function realPath(dir: string, gitDir: string, probes: Probes): Promise<string> {
  const root = isAbsolute(dir) ? rootOf(dir) : "";
  let spelled = root === "" ? Deno.cwd() : root;
  for (const part of dir.slice(root.length).split(SEPARATORS)) {
    if (part === "" || part === ".") continue;
    if (part !== "..") {
      spelled = join(spelled, part);
      continue;
    }
    const [real, rest] = await realPrefix(spelled, gitDir, probes);
    spelled = rest.length > 0 ? join(real, ...rest.slice(0, -1)) : dirname(real); // tether:guard wt-spawn-dotdot
  }
  const [real, rest] = await realPrefix(spelled, gitDir, probes);
  return join(real, ...rest);
}

/**
 * Refuse a worktree directory inside the parent's working tree that git does not ignore:
 * it would show in the parent's status and be recorded (as an embedded repository) in
 * the seed of every child. Each directory is compared by its real path, so a link to the
 * parent's tree (`plink/kids/c1`, `elsewhere/plink/../kids/c1`) is inside it too.
 *
 * @returns Each directory's real path ({@linkcode realPath}), in order.
 */
export async function refuseInsideParent(dirs: readonly string[], top: string): Promise<string[]> {
  const gitDir = await gitText(["rev-parse", "--absolute-git-dir"], { cwd: top });
  const probes: Probes = new Map();
  const paths = await Promise.all(
    dirs.map((dir) => realPath(dir, gitDir, probes)), // tether:guard wt-spawn-real-dir
  );
  for (const [i, dir] of dirs.entries()) {
    const absolute = paths[i]!;
    if (!absolute.startsWith(`${top}/`)) continue;
    const relative = absolute.slice(top.length + 1);
    const ignored = await runGit(["check-ignore", "-q", "--", `${relative}/`], {
      cwd: top,
      allowFailure: true,
    });
    if (ignored.code !== 0) {
      const real = absolute === resolve(dir) ? "" : ` (its real path is "${absolute}")`;
      throw new GitError(
        "failed",
        `The worktree directory "${dir}" is inside the parent's working tree${real} and not ignored; put it outside, or in an ignored directory`,
      );
    }
  }
  return paths;
}
