/**
 * Repositories for the coord tests: a main worktree (Primary) and linked worktrees W1,
 * W2, W3 made with `git worktree add`, a canonical STATUS on `main`, and helpers to
 * commit in a lane and run the real `coord` there.
 *
 * @module
 */
import { join } from "node:path";
import { bin, git, type Run, tempDir, writeFiles } from "./_helpers.ts";

/** The lanes of the standard fixture. */
export const LANES = ["Primary", "W1", "W2", "W3"] as const;
/** One lane of the standard fixture. */
export type Lane = typeof LANES[number];

/** A throwaway multi-worktree repository. */
export interface CoordRepo {
  /** The temp dir holding every worktree. */
  root: string;
  /** Lane → worktree path. */
  wt: Record<Lane, string>;
  /** The first commit, named `base:` in STATUS. */
  base: string;
  /** The lane lines and base line every STATUS starts with. */
  header: string;
  /** Commit STATUS on main (in Primary's worktree) with the header and extra lines; returns the commit. */
  setStatus(extra?: string): Promise<string>;
  /** Write files in a lane's worktree and commit them there; returns the new commit. */
  commit(lane: Lane, files: Record<string, string>, message?: string): Promise<string>;
  /** Run coord in a lane's worktree. */
  coord(lane: Lane, args: string[], stdin?: string): Promise<Run>;
  /** Run git in a lane's worktree. */
  git(lane: Lane, args: string[]): Promise<string>;
  /** Remove everything. */
  cleanup(): Promise<void>;
}

/** Options for {@linkcode makeCoordRepo}. */
export interface CoordRepoOptions {
  /** Extra STATUS lines after the header (e.g. `blind: W1 W2`). */
  status?: string;
  /** `sha256` for a SHA-256 repository. */
  objectFormat?: "sha1" | "sha256";
}

/**
 * Build the standard fixture: Primary on `main`, W1/W2/W3 on branches `w1`/`w2`/`w3`.
 *
 * @param options Extra STATUS lines and object format.
 * @returns The fixture.
 */
export async function makeCoordRepo(options: CoordRepoOptions = {}): Promise<CoordRepo> {
  const root = await tempDir("tether-coord-");
  const main = join(root, "Primary");
  await Deno.mkdir(main);
  const init = ["init", "-q", "-b", "main"];
  if (options.objectFormat === "sha256") init.push("--object-format=sha256");
  await git(main, init);
  for (
    const [k, v] of [["user.name", "Fixture"], ["user.email", "fixture@example.invalid"], [
      "commit.gpgsign",
      "false",
    ]]
  ) {
    await git(main, ["config", k!, v!]);
  }
  await writeFiles(main, { "README.md": "# fixture\n", "src/shared.txt": "shared\n" });
  await git(main, ["add", "-A"]);
  await git(main, ["commit", "-q", "-m", "initial"]);
  const base = await git(main, ["rev-parse", "HEAD"]);
  const wt = { Primary: main } as Record<Lane, string>;
  for (const lane of ["W1", "W2", "W3"] as const) {
    wt[lane] = join(root, lane);
    await git(main, ["worktree", "add", "-q", "-b", lane.toLowerCase(), wt[lane], base]);
  }
  const header = `lane: Primary .\nlane: W1 ../W1\nlane: W2 ../W2\nlane: W3 ../W3\nbase: ${base}\n`;
  const repo: CoordRepo = {
    root,
    wt,
    base,
    header,
    async setStatus(extra = "") {
      await Deno.writeTextFile(
        join(main, "STATUS"),
        `# canonical project status\n${header}${extra}`,
      );
      await git(main, ["add", "STATUS"]);
      await git(main, ["commit", "-q", "-m", "STATUS update"]);
      return await git(main, ["rev-parse", "HEAD"]);
    },
    async commit(lane, files, message = `work in ${lane}`) {
      await writeFiles(wt[lane], files);
      await git(wt[lane], ["add", "-A"]);
      await git(wt[lane], ["commit", "-q", "--allow-empty", "-m", message]);
      return await git(wt[lane], ["rev-parse", "HEAD"]);
    },
    coord(lane, args, stdin) {
      return bin("coord", args, stdin === undefined ? { cwd: wt[lane] } : { cwd: wt[lane], stdin });
    },
    git(lane, args) {
      return git(wt[lane], args);
    },
    async cleanup() {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    },
  };
  await repo.setStatus(options.status ?? "");
  return repo;
}
