/**
 * Test utilities: build real throwaway repositories and worktrees in a temp dir and run
 * the real entry points under exactly the permission flags their binaries get.
 *
 * @module
 */
import { dirname, join } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";

/** The repository root (where the entry points live). */
export const ROOT: string = dirname(import.meta.dirname!);

/**
 * A fixed identity and a quiet environment for git calls that build fixtures; no automatic
 * maintenance (a commit would otherwise start one more git process that finds nothing to do).
 */
const FIXTURE_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: "Fixture",
  GIT_AUTHOR_EMAIL: "fixture@example.invalid",
  GIT_COMMITTER_NAME: "Fixture",
  GIT_COMMITTER_EMAIL: "fixture@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "maintenance.auto",
  GIT_CONFIG_VALUE_0: "false",
};

const decoder = new TextDecoder();

/** How to run a process: directory, standard input, extra environment. */
export interface RunOptions {
  cwd?: string;
  stdin?: string | Uint8Array;
  env?: Record<string, string>;
  clearEnv?: boolean;
}

/** What a process returned. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run git to build a fixture; throws with stderr on failure.
 *
 * @param cwd Where to run.
 * @param args git arguments.
 * @param stdin Optional input.
 * @returns stdout without its final newline.
 */
export async function git(cwd: string, args: string[], stdin?: string): Promise<string> {
  const r = await run(
    "git",
    args,
    stdin === undefined ? { cwd, env: FIXTURE_ENV } : { cwd, stdin, env: FIXTURE_ENV },
  );
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout.replace(/\n$/, "");
}

/**
 * Run any program.
 *
 * @param cmd Program.
 * @param args Arguments.
 * @param options cwd, stdin, extra env, clearEnv.
 * @returns Exit code and decoded output.
 */
export async function run(
  cmd: string,
  args: string[],
  options: RunOptions = {},
): Promise<Run> {
  const child = new Deno.Command(cmd, {
    args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    clearEnv: options.clearEnv ?? false,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(
      typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
    );
    await w.close();
  }
  const out = await child.output();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/**
 * Run a tether entry point with `deno run` and exactly the flags of its binary.
 *
 * @param name Binary name (`handshake`, `verify`, `gate`, `coord`).
 * @param args Its arguments.
 * @param options cwd, stdin, env (added to the inherited environment).
 * @returns Exit code and output.
 */
export function bin(
  name: BinaryName,
  args: string[],
  options: RunOptions = {},
): Promise<Run> {
  return run(
    Deno.execPath(),
    ["run", "--quiet", "--no-prompt", ...PERMISSIONS[name], join(ROOT, `${name}.ts`), ...args],
    { ...options, env: { NO_COLOR: "1", ...options.env } },
  );
}

/** Every temp directory this test module made that may still exist. */
const made = new Set<string>();

/**
 * Remove every temp directory this module made (tests may remove theirs earlier; a test
 * that failed half-way leaves its own). Runs after the module's last test, so a whole
 * `deno test` run, `--parallel` or not, leaves nothing in `$TMPDIR`.
 */
export async function removeTempDirs(): Promise<void> {
  for (const dir of made) {
    await Deno.remove(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
    made.delete(dir);
  }
}

Deno.test.afterAll(removeTempDirs); // guard: temp dirs removed after the module

/**
 * Make a fresh temp directory; removed after the test module's last test (see
 * {@linkcode removeTempDirs}) unless the test removes it first.
 *
 * @returns The real (symlink-resolved) path.
 */
export async function tempDir(prefix = "tether-test-"): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  made.add(dir);
  return await Deno.realPath(dir);
}

/**
 * A `git` first on PATH (for the processes given its `env`, never this one's, which the
 * test files running beside it share) that runs `before` as shell text, then the real git
 * with the same arguments and exit code, unless `before` ends the script itself. `$REAL`
 * names the real git; `$DIR` the shim's own directory.
 *
 * @param before Shell text run first (say, a `case " $* " in …` on the arguments).
 * @returns The shim's directory and the env (`PATH`) that puts it first.
 */
export async function gitShim(before = ""): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await tempDir("tether-shim-");
  const real = (await run("sh", ["-c", "command -v git"])).stdout.trim();
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh\nREAL='${real}'\nDIR='${dir}'\n${before}\nexec "$REAL" "$@"\n`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  return { dir, env: { PATH: `${dir}:${Deno.env.get("PATH") ?? ""}` } };
}

/** Options for {@linkcode makeRepo}. */
export interface RepoOptions {
  /** `sha256` for a SHA-256 repository. */
  objectFormat?: "sha1" | "sha256";
  /** Files of the first commit (path → content). Default: README.md. */
  files?: Record<string, string>;
  /** Initial branch name. Default `main`. */
  branch?: string;
}

/**
 * Give a fixture repository its identity and signing settings (`user.name`, `user.email`,
 * `commit.gpgsign=false`, and `extra` lines such as `tag.gpgsign`), written into its config
 * file as `git config` would write them, without a git process per setting.
 *
 * @param repo The repository's work tree (its git directory is `.git` in it).
 * @param extra More settings: `section.key` → value.
 */
export async function fixtureIdentity(
  repo: string,
  extra: Record<string, string> = {},
): Promise<void> {
  const settings: Record<string, string> = {
    "user.name": "Fixture",
    "user.email": "fixture@example.invalid",
    "commit.gpgsign": "false",
    ...extra,
  };
  const text = Object.entries(settings).map(([key, value]) => {
    const [section, name] = key.split(".");
    return `[${section}]\n\t${name} = ${value}\n`;
  }).join("");
  await Deno.writeTextFile(join(repo, ".git/config"), text, { append: true });
}

/**
 * Create a repository in a new temp dir with one commit.
 *
 * @param options Object format, initial files, branch.
 * @returns The repository path.
 */
export async function makeRepo(options: RepoOptions = {}): Promise<string> {
  const dir = await tempDir();
  const init = ["init", "-q", "-b", options.branch ?? "main"];
  if (options.objectFormat === "sha256") init.push("--object-format=sha256");
  await git(dir, init);
  await fixtureIdentity(dir);
  await writeFiles(dir, options.files ?? { "README.md": "# fixture\n" });
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", "initial"]);
  return dir;
}

/**
 * Write files (creating parent directories).
 *
 * @param dir Base directory.
 * @param files path → content.
 */
export async function writeFiles(
  dir: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.writeFile(full, content);
  }
}

/**
 * Commit everything in a directory.
 *
 * @param dir Worktree.
 * @param message Commit message.
 * @returns The new HEAD.
 */
export async function commitAll(dir: string, message: string): Promise<string> {
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "--allow-empty", "-m", message]);
  return await git(dir, ["rev-parse", "HEAD"]);
}

/**
 * What the bash recipe of the seed computes: `git status --porcelain | tr -d '\r' | sha256sum | cut -c1-12`.
 *
 * @param dir Where to run it.
 * @returns The 12-hex fingerprint as bash computes it.
 */
export async function bashFingerprint(dir: string): Promise<string> {
  const r = await run("bash", [
    "-c",
    "git status --porcelain | tr -d '\\r' | sha256sum | cut -c1-12",
  ], {
    cwd: dir,
  });
  if (r.code !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}
