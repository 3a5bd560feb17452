/**
 * Repositories for the coord tests: a main worktree (Primary) and linked worktrees W1,
 * W2, W3 made with `git worktree add`, a canonical STATUS on `main`, and helpers to
 * commit in a lane and run the real `coord` there.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { bin, fixtureIdentity, git, type Run, tempDir, writeFiles } from "./_helpers.ts";

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
  /** Run coord in a lane's worktree (env is added to the inherited environment). */
  coord(lane: Lane, args: string[], stdin?: string, env?: Record<string, string>): Promise<Run>;
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
  await fixtureIdentity(main);
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
    coord(lane, args, stdin, env) {
      return bin("coord", args, {
        cwd: wt[lane],
        ...(stdin === undefined ? {} : { stdin }),
        ...(env === undefined ? {} : { env }),
      });
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

/** A `git` first on PATH that logs each call, then runs the real git. */
export interface GitCounter {
  /** Environment that puts the counting `git` first on PATH. */
  env: Record<string, string>;
  /** How many git processes were started since the last call (and start counting anew). */
  take(): Promise<number>;
}

/**
 * Count the git processes a command starts with a shim first on PATH (the binary itself
 * prints nothing of the kind).
 *
 * @param dir A directory for the shim and its log.
 * @returns The counter.
 */
export async function gitCounter(dir: string): Promise<GitCounter> {
  const shim = join(dir, "git-shim");
  const log = join(dir, "git-calls.log");
  await Deno.mkdir(shim, { recursive: true });
  const which = new Deno.Command("sh", { args: ["-c", "command -v git"], stdout: "piped" });
  const realGit = new TextDecoder().decode((await which.output()).stdout).trim();
  await Deno.writeTextFile(
    join(shim, "git"),
    `#!/bin/sh\necho x >> '${log}'\nexec '${realGit}' "$@"\n`,
  );
  await Deno.chmod(join(shim, "git"), 0o755);
  return {
    env: { PATH: `${shim}:${Deno.env.get("PATH") ?? ""}` },
    async take() {
      const text = await Deno.readTextFile(log).catch(() => "");
      await Deno.remove(log).catch(() => {});
      return text.split("\n").filter((l) => l !== "").length;
    },
  };
}
