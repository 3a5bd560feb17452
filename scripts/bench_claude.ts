/**
 * The Claude Code rows of `deno task bench`: `tether hook` serving `WorktreeCreate` on a
 * repository of 10,000 tracked files with uncommitted work, against `git worktree add` plus
 * copying the dirty files by hand; and the hook's cost per Agent call (`PreToolUse` of a
 * shared-tree child on a small repository) and per user prompt (`UserPromptSubmit`, which
 * every prompt of a session sends) against a bare `deno run` of an empty script.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { git, makeRepo, run, tempDir } from "../tests/_helpers.ts";
import { alternate, type GitShim, progress, type Row, tether, writeMany } from "./_bench.ts";

/** A repository of `files` committed files with staged, unstaged and untracked work. */
async function dirtyRepo(files: number): Promise<string> {
  const root = await tempDir("tether-bench-claude-");
  const repo = join(root, "project");
  await Deno.mkdir(repo);
  await git(repo, ["init", "-q", "-b", "main"]);
  await git(repo, ["config", "user.name", "Bench"]);
  await git(repo, ["config", "user.email", "bench@example.invalid"]);
  const paths = Array.from({ length: files }, (_, i) => `src/d${Math.floor(i / 100)}/f${i}.txt`);
  await writeMany(repo, paths, (i) => `${i}\n`);
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "many files"]);
  await writeMany(repo, paths.slice(0, 20), (i) => `${i} edited\n`);
  await git(repo, ["add", ...paths.slice(0, 5)]);
  await writeMany(repo, Array.from({ length: 10 }, (_, i) => `new/n${i}.txt`), (i) => `n${i}\n`);
  await git(repo, ["status", "--porcelain"]);
  return repo;
}

/** Copy the dirty files by hand: what a user does after `git worktree add`. */
const BY_HAND = (dir: string) =>
  `git worktree add -q --detach '${dir}' HEAD && ` +
  `git ls-files -z --modified --others --exclude-standard | xargs -0 cp --parents -t '${dir}'`;

async function removeAll(repo: string): Promise<void> {
  const list = await git(repo, ["worktree", "list", "--porcelain"]);
  for (const line of list.split("\n").filter((l) => l.startsWith("worktree ")).slice(1)) {
    await git(repo, ["worktree", "remove", "--force", "--force", line.slice(9)]);
  }
  const refs = await git(repo, [
    "for-each-ref",
    "--format=%(refname)",
    "refs/tether/",
    "refs/heads/tether/",
  ]);
  for (const ref of refs.split("\n").filter(Boolean)) await git(repo, ["update-ref", "-d", ref]);
}

/**
 * The Claude Code rows.
 *
 * @param shim The git shim that counts processes.
 * @returns The rows.
 */
export async function benchClaude(shim: GitShim): Promise<Row[]> {
  const repo = await dirtyRepo(10_000);
  let n = 0;
  const create = async (env: Record<string, string> = {}) => {
    const payload = { hook_event_name: "WorktreeCreate", cwd: repo, name: `agent-b${n++}` };
    const r = await tether("tether", ["hook"], { cwd: repo, stdin: JSON.stringify(payload), env });
    if (r.code !== 0) throw new Error(`WorktreeCreate failed: ${r.stderr}`);
  };
  const byHand = () => run("bash", ["-c", BY_HAND(join(repo, "..", `hand-${n++}`))], { cwd: repo });
  progress("WorktreeCreate, 10,000 files");
  const created = await alternate(5, create, byHand, () => removeAll(repo));
  const createGit = await shim.count(() => create(shim.env));
  await removeAll(repo);
  const small = await makeRepo();
  const call = JSON.stringify({
    hook_event_name: "PreToolUse",
    cwd: small,
    tool_name: "Agent",
    tool_input: { description: "d", prompt: "Review src/app.ts." },
  });
  const empty = join(await tempDir("tether-bench-empty-"), "empty.ts");
  await Deno.writeTextFile(empty, "");
  progress("hook per Agent call");
  const perCall = await alternate(
    9,
    () => tether("tether", ["hook"], { cwd: small, stdin: call }),
    () => run(Deno.execPath(), ["run", "--quiet", "--no-prompt", empty]),
  );
  const prompt = JSON.stringify({
    hook_event_name: "UserPromptSubmit",
    cwd: small,
    prompt: "Go on with the next step.",
  });
  progress("hook per user prompt");
  const perPrompt = await alternate(
    9,
    () => tether("tether", ["hook"], { cwd: small, stdin: prompt }),
    () => run(Deno.execPath(), ["run", "--quiet", "--no-prompt", empty]),
  );
  await Deno.remove(join(repo, ".."), { recursive: true });
  await Deno.remove(small, { recursive: true });
  await Deno.remove(join(empty, ".."), { recursive: true });
  return [
    {
      name: "`tether hook` WorktreeCreate, 10,000 files with staged, unstaged and untracked work",
      ...created,
      baselineCommand: "`git worktree add` and copying the dirty files by hand (`cp --parents`)",
      target: { kind: "ratio", max: 1.5 },
      git: createGit,
    },
    {
      name: "`tether hook` per Agent call (PreToolUse, shared tree), small repository",
      ...perCall,
      baselineCommand: "`deno run` of an empty script",
      target: { kind: "none" },
    },
    {
      name: "`tether hook` per user prompt (UserPromptSubmit, no child notified)",
      ...perPrompt,
      baselineCommand: "`deno run` of an empty script",
      target: { kind: "none" },
    },
  ];
}
