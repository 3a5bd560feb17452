/**
 * The fill step of a spawn: write one child's files from the seed's working tree, set its
 * index to the seed's index tree, attach its HEAD to its branch, and verify that it holds
 * the parent's state. The child's checkout writes the seed's raw bytes back: no line-ending
 * rewrite from the configuration (attributes can still ask for one; the byte check then
 * refuses), no hook, and an index that says what was written: no assume-unchanged or
 * fsmonitor marking and no sparse-checkout skipping, so the byte check sees every file.
 *
 * @module
 */

import { type GitOptions, runGit } from "../git.ts";
import { STATUS_ARGS, STATUS_ENV } from "../handshake/capture.ts";
import {
  changedPaths,
  checkoutByteDiffers,
  checkoutModeDiffers,
  rawTree,
  type TreeState,
} from "../seed/state.ts";
import { listPaths } from "../show.ts";
import { carriedFingerprint } from "./carried_status.ts";
import { pinned, readDrivers } from "./land_config.ts";
import { type RawEntry } from "../context/raw_tree.ts";
import { GitError } from "../git_error.ts";

/** One child worktree, as a fill made it. */
export interface SpawnedChild {
  /** Absolute top level. */
  path: string;
  /** The branch checked out in it (short name). */
  branch: string;
  /** The directory in it that corresponds to the parent's working directory. */
  cwd: string;
}

/** What every child is filled with once the parent's state is confirmed and recorded. */
export interface Filling {
  /** The parent's state. */
  state: TreeState;
  /** The seed's working-tree entries (path → mode and raw id). */
  tracked: ReadonlyMap<string, RawEntry>;
  /** The parent's dirty fingerprint, as worktree mode takes it (src/worktree/carried_status.ts). */
  fp: string;
  /** The seed's gitlinks (submodules), whose own working tree no child gets. */
  gitlinks: readonly string[];
  /** The intent-to-add entries to carry. */
  ita: readonly Uint8Array[];
  /** The skip-worktree entries whose file the parent lacks, marked so in the child too. */
  skipped: readonly Uint8Array[];
  /** The branches claimed, one per child in order. */
  branches: readonly string[];
}

/** Paths joined as git reads them from `-z`/`--pathspec-file-nul` input. */
function nulJoined(paths: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(paths.reduce((n, p) => n + p.length + 1, 0));
  let at = 0;
  for (const p of paths) {
    out.set(p, at);
    at += p.length + 1;
  }
  return out;
}

/**
 * Fill one child: check out the seed's working tree, then check that the files are exactly
 * its bytes (hashed raw, as the parent's were: {@linkcode checkoutModeDiffers} and
 * {@linkcode checkoutByteDiffers}, or for a tree with links or submodules the whole raw tree
 * written again and compared) while the index is set to the seed's index tree keeping stat
 * data and HEAD is attached to the branch; then verify the child ({@linkcode verifyFilled}).
 *
 * The files are first written from `early`, the working-tree tree of the parent's first
 * reading, while the parent is read again; once `final` has the confirmed state they are
 * written again from its tree when it is another one, so every check is of the confirmed
 * state's checkout.
 *
 * @param dir The child's worktree (real path).
 * @param index The child's place among the spawn's children (its branch's).
 * @param early The working-tree tree of the parent's first reading.
 * @param final What every child is filled with.
 * @param prefix The parent's working directory below its top level.
 * @returns The child.
 * @throws {GitError} when git fails or the child does not hold the parent's state.
 */
export async function fill(
  dir: string,
  index: number,
  early: Promise<string>,
  final: Promise<Filling>,
  prefix: string,
): Promise<SpawnedChild> {
  // The checkout and index calls obey nothing the shared .git says about filters, sparse
  // checkout, line ends or attribute files (land_config.ts): every filter it names is
  // pinned to none, as they are when the parent's files were hashed raw.
  const [pins, opts] = pinned(await readDrivers(dir), { cwd: dir }); // tether:guard wt-spawn-pins
  const checkout = (tree: string) =>
    runGit([...pins, "read-tree", "--reset", "-u", "--end-of-options", tree], opts);
  const first = await early;
  await checkout(first);
  const filling = await final;
  const { state, tracked, branches } = filling;
  const branch = branches[index]!;
  if (state.worktree !== first) await checkout(state.worktree); // tether:guard wt-spawn-recheckout
  const modes = await checkoutModeDiffers(dir, tracked); // before the index changes
  const bytes = async () => {
    if (modes !== undefined) return await checkoutByteDiffers(dir, tracked, modes);
    const written = await rawTree(dir, tracked);
    return written === state.worktree ? [] : await changedPaths(dir, state.worktree, written);
  };
  // Every call settles before the fill returns or throws: nothing runs in a worktree that a
  // failed spawn is removing.
  const [checked, staged, attached, where] = await Promise.allSettled([
    bytes(),
    stage(pins, opts, filling),
    runGit(["symbolic-ref", "HEAD", `refs/heads/${branch}`], { cwd: dir }),
    runGit(["rev-parse", "--show-toplevel"], {
      cwd: prefix === "" ? dir : `${dir}/${prefix}`,
      parse: true,
      allowFailure: true,
    }),
  ]);
  for (const step of [checked, staged, attached, where]) {
    if (step.status === "rejected") throw step.reason;
  }
  return await verifyFilled(dir, prefix, filling, {
    paths: (checked as PromiseFulfilledResult<string[]>).value,
    branch,
    found: (where as PromiseFulfilledResult<{ code: number; stdout: Uint8Array }>).value,
  });
}

/**
 * Set the child's index to the seed's index tree, keeping the files as written, with the
 * parent's skip-worktree and intent-to-add entries.
 *
 * @param pins The pinned arguments of the child's index calls.
 * @param opts Their options.
 * @param filling What the child is filled with.
 * @throws {GitError} when git fails.
 */
async function stage(
  pins: readonly string[],
  opts: GitOptions,
  { state, ita, skipped }: Filling,
): Promise<void> {
  // Index only (`-i`): the files were just written from the seed and are checked raw
  // above. git's own check would hash them with the attributes' conversions (a CRLF file
  // under `text eol=crlf` cleans to another blob than its raw bytes) and refuse them as
  // "not uptodate", though git itself considers the file clean.
  await runGit([...pins, "read-tree", "-m", "-i", "--end-of-options", state.index], opts); // tether:guard wt-spawn-stage-index-only
  if (skipped.length > 0) { // tether:guard wt-spawn-skip-worktree
    await runGit([...pins, "update-index", "-z", "--skip-worktree", "--stdin"], {
      ...opts,
      stdin: nulJoined(skipped),
    });
  }
  if (ita.length > 0) { // tether:guard wt-spawn-ita
    // The index tree holds each intent-to-add entry as an empty file (as `ls-files -s`
    // shows it); make it git's own intent-to-add entry again, the file left as it is.
    const paths = nulJoined(ita);
    await runGit([...pins, "update-index", "-z", "--force-remove", "--stdin"], {
      ...opts,
      stdin: paths,
    });
    await runGit(
      [...pins, "add", "-N", "-f", "--pathspec-from-file=-", "--pathspec-file-nul"],
      { ...opts, stdin: paths, env: { ...opts.env, GIT_LITERAL_PATHSPECS: "1" } },
    );
  }
}

/**
 * Verify a filled child: its files are the parent's byte for byte, its status has the
 * parent's fingerprint, and the parent's directory exists in it.
 *
 * @param dir The child's worktree.
 * @param prefix The parent's working directory below its top level.
 * @param filling What the child was filled with.
 * @param fill What the fill found: the paths whose bytes differ, the child's branch, and
 *   git's answer for the top level seen from the parent's directory in the child.
 * @returns The child.
 * @throws {GitError} when the child does not hold the parent's state.
 */
async function verifyFilled(
  dir: string,
  prefix: string,
  { fp, gitlinks }: Filling,
  { paths, branch, found }: {
    paths: readonly string[];
    branch: string;
    found: { code: number; stdout: Uint8Array };
  },
): Promise<SpawnedChild> {
  if (paths.length > 0) { // tether:guard wt-spawn-bytes
    throw new GitError(
      "failed",
      `The worktree ${dir} does not hold the parent's files byte for byte at: ${
        listPaths(paths)
      } (line-ending, encoding or filter attributes rewrote them on checkout)`,
    );
  }
  // As the parent's fingerprint was read.
  const status = await runGit(STATUS_ARGS, { cwd: dir, env: STATUS_ENV, keepReplaceObjects: true });
  if (await carriedFingerprint(status.stdout, gitlinks) !== fp) {
    throw new GitError(
      "failed",
      `git status in ${dir} differs from the parent's (a clean filter or a setting of the repository's config shows the same files differently there): compare git status in both, then spawn again`,
    );
  }
  const top = new TextDecoder().decode(found.stdout).replace(/\n$/, "");
  if (found.code !== 0 || !top) {
    throw new GitError(
      "failed",
      `The parent's directory "${prefix}" holds nothing git carries (only ignored or no files), so the worktree has no such directory`,
    );
  }
  return { path: top, branch, cwd: prefix === "" ? top : `${top}/${prefix}` };
}
