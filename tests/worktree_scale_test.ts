/**
 * Worktree mode starts a bounded number of git processes: spawning (one child, or three
 * with `--count 3`), verifying and landing take as many for 40 dirty files as for 4. The count comes from a `git` wrapper first on
 * PATH that logs each start, so the real entry points run unchanged under their flags.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { bin, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";
import { removeWorktrees } from "./_worktree_fixture.ts";

async function wrapper(dir: string): Promise<{ path: string; log: string }> {
  const real = (await run("bash", ["-c", "command -v git"])).stdout.trim();
  const log = join(dir, "git.log");
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh\necho x >> ${JSON.stringify(log)}\nexec ${JSON.stringify(real)} "$@"\n`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  return { path: `${dir}:${Deno.env.get("PATH")}`, log };
}

async function counted(
  w: { path: string; log: string },
  name: "handshake" | "verify" | "gate",
  args: string[],
  cwd: string,
  stdin: string,
): Promise<[number, string]> {
  await Deno.writeTextFile(w.log, "");
  const r = await bin(name, args, { cwd, stdin, env: { PATH: w.path } });
  assertOk(r.code === 0, `${name} ${args.join(" ")}: ${r.stdout}${r.stderr}`);
  return [(await Deno.readTextFile(w.log)).split("\n").filter(Boolean).length, r.stdout];
}

async function round(files: number): Promise<number[]> {
  const repo = await makeRepo();
  const kids = await tempDir("tether-kids-");
  const tools = await tempDir("tether-wrap-");
  try {
    const w = await wrapper(tools);
    const dirty: Record<string, string> = {};
    for (let i = 0; i < files; i++) dirty[`d${i % 5}/f${i}.txt`] = `${i}\n`;
    await writeFiles(repo, dirty);
    const child = join(kids, "c");
    const [spawn, prompt] = await counted(
      w,
      "handshake",
      ["wrap", "--worktree", child],
      repo,
      "t\n",
    );
    const [verify] = await counted(w, "verify", [], child, prompt);
    const changed: Record<string, string> = {};
    for (let i = 0; i < files; i++) changed[`d${i % 5}/f${i}.txt`] = `${i} child\n`;
    await writeFiles(child, changed);
    const result = JSON.stringify({
      ok: true,
      summary: "s",
      files_changed: Object.keys(changed),
      errors: [],
      evidence: [{ kind: "file", ref: "d0/f0.txt", ok: true }],
    });
    const seed = /^seed: (\S+)$/m.exec(prompt)?.[1] ?? "";
    const [land] = await counted(
      w,
      "gate",
      ["--worktree", child, "--seed", seed, "--land"],
      repo,
      result,
    );
    const [batch] = await counted(
      w,
      "handshake",
      ["--worktree", join(kids, "batch"), "--count", "3"],
      repo,
      "",
    );
    return [spawn, verify, land, batch];
  } finally {
    await removeWorktrees(repo);
    for (const d of [repo, kids, tools]) await Deno.remove(d, { recursive: true });
  }
}

Deno.test("spawn, verify, land and a --count 3 spawn start as many git processes for 40 dirty files as for 4", async () => {
  const small = await round(4);
  const large = await round(40);
  assertEquals(large, small);
  // A sanity bound, not a budget: the land's checks of the shared .git's settings and its
  // read-back of what it wrote (reviews worktree-5 and -6) brought it to about 90.
  assertOk(small.slice(0, 3).every((n) => n > 0 && n < 120), JSON.stringify(small));
  // Three children cost some processes each (their fill, checks and the shared .git's filters
  // read again) on top of one parent side, not three spawns.
  assertOk(small[3]! < small[0]! + 2 * 16, JSON.stringify(small));
});
