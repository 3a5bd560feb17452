/**
 * Exact mode (`handshake --exact`, v2 blocks): every design-level case that the v1
 * fingerprint cannot see halts, through the real entry points under `--allow-run=git`.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertMatch, assertNotEquals, assertOk } from "../src/_assert.ts";
import { parseBlock } from "../src/handshake/block.ts";
import { bashFingerprint, bin, git, makeRepo, run, tempDir, writeFiles } from "./_helpers.ts";

async function withRepo(
  body: (dir: string) => Promise<void>,
  files: Record<string, string> = { "a.txt": "a\n", "b.txt": "b\n" },
) {
  const dir = await makeRepo({ files });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** `handshake wrap --exact` in `dir`: the v2 prompt. */
async function exactPrompt(dir: string): Promise<string> {
  const r = await bin("handshake", ["wrap", "--exact", "--strict"], { cwd: dir, stdin: "task\n" });
  assertEquals(r.code, 0, r.stderr);
  assertMatch(r.stdout, /^<!-- subagent-env-handshake v2 -->\n/);
  return r.stdout;
}

function verify(dir: string, prompt: string, json = false) {
  return bin("verify", json ? ["--json"] : [], { cwd: dir, stdin: prompt });
}

/** Verify halts naming `seed` and exactly the given paths (text and JSON). */
async function assertHalts(dir: string, prompt: string, paths: string[]) {
  const r = await verify(dir, prompt);
  assertEquals(r.code, 1, r.stdout + r.stderr);
  assertMatch(r.stdout, /^## Finding: environment-divergence \(halting\)/);
  assertMatch(r.stdout, /\*\*Diverged fields:\*\* (.*, )?seed\n/);
  for (const path of paths) assertOk(r.stdout.includes(`- ${path} (`), `${path} in ${r.stdout}`);
  const j = JSON.parse((await verify(dir, prompt, true)).stdout);
  assertEquals(j.status, "mismatch");
  assertOk(j.diverged.includes("seed"));
  assertEquals([...j.seed.index_paths, ...j.seed.worktree_paths].sort(), [...paths].sort());
}

/** The porcelain fingerprint did not change: the case is blind to v1. */
async function blindToV1(dir: string, before: string) {
  assertEquals(await bashFingerprint(dir), before, "the case must be invisible to porcelain");
}

Deno.test("exact: verify matches the tree the parent captured, dirty and untracked included", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "edited\n", "new/u.txt": "u\n" });
    await git(dir, ["add", "a.txt"]);
    const prompt = await exactPrompt(dir);
    const r = await verify(dir, prompt);
    assertEquals(r.code, 0, r.stdout);
    assertMatch(r.stdout, /^environment-verified: [0-9a-f]{40} on main\n$/);
    const j = JSON.parse((await verify(dir, prompt, true)).stdout);
    assertEquals([j.status, j.version, j.workspace_mode, j.diverged], ["match", 2, "shared", []]);
  }));

Deno.test("exact: two different edits of one file halt (design-porcelain-blind)", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "a\nparent\n" });
    const prompt = await exactPrompt(dir);
    const before = await bashFingerprint(dir);
    await writeFiles(dir, { "a.txt": "a\nparent\nsibling\n" });
    await blindToV1(dir, before);
    // v1 is blind to it: a v1 block verifies "match" on the sibling's tree.
    const v1 = await bin("handshake", ["wrap"], { cwd: dir, stdin: "t" });
    await writeFiles(dir, { "a.txt": "a\nparent\nsibling again\n" });
    assertEquals((await verify(dir, v1.stdout)).code, 0);
    await assertHalts(dir, prompt, ["a.txt"]);
  }));

Deno.test("exact: a submodule at another commit halts", () =>
  withRepo(async (dir) => {
    const sub = await makeRepo({ files: { "s.txt": "1\n" } });
    try {
      await git(dir, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "sub"]);
      await git(dir, ["commit", "-qm", "sub"]);
      const inSub = join(dir, "sub");
      await writeFiles(inSub, { "s.txt": "2\n" });
      await git(inSub, ["commit", "-qam", "two"]);
      const prompt = await exactPrompt(dir); // sub at "two": porcelain " M sub"
      const before = await bashFingerprint(dir);
      await writeFiles(inSub, { "s.txt": "3\n" });
      await git(inSub, ["commit", "-qam", "three"]);
      await blindToV1(dir, before);
      await assertHalts(dir, prompt, ["sub"]);
    } finally {
      await Deno.remove(sub, { recursive: true });
    }
  }));

for (const bit of ["--skip-worktree", "--assume-unchanged"]) {
  Deno.test(`exact: an edit hidden by ${bit.slice(2)} halts`, () =>
    withRepo(async (dir) => {
      await git(dir, ["update-index", bit, "a.txt"]);
      await writeFiles(dir, { "a.txt": "hidden edit\n" });
      const prompt = await exactPrompt(dir);
      const before = await bashFingerprint(dir);
      await writeFiles(dir, { "a.txt": "another hidden edit\n" });
      await blindToV1(dir, before);
      await assertHalts(dir, prompt, ["a.txt"]);
    }));
}

Deno.test("exact: a different sparse checkout halts", () =>
  withRepo(async (dir) => {
    await git(dir, ["sparse-checkout", "set", "--no-cone", "/x/"]);
    const prompt = await exactPrompt(dir);
    const before = await bashFingerprint(dir);
    await git(dir, ["sparse-checkout", "set", "--no-cone", "/y/"]);
    await blindToV1(dir, before);
    await assertHalts(dir, prompt, ["x/1.txt", "y/1.txt"]);
  }, { "x/1.txt": "x\n", "y/1.txt": "y\n", "top.txt": "t\n" }));

Deno.test("exact: status.showUntrackedFiles=no added later hides nothing", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const before = await bashFingerprint(dir);
    await git(dir, ["config", "status.showUntrackedFiles", "no"]);
    await writeFiles(dir, { "scratch/out.log": "sibling output\n" });
    await blindToV1(dir, before);
    await assertHalts(dir, prompt, ["scratch/out.log"]);
  }));

Deno.test("exact: an untracked file hidden by an ignore rule added later halts", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "out/u.txt": "u\n", "out/w.txt": "w\n" });
    const prompt = await exactPrompt(dir); // porcelain "?? out/"; the seed holds both files
    const before = await bashFingerprint(dir);
    await writeFiles(dir, { ".git/info/exclude": "/out/u.txt\n" });
    await blindToV1(dir, before);
    await assertHalts(dir, prompt, ["out/u.txt"]);
  }));

Deno.test("exact: a staged change that the working tree hides is named as an index path", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    await writeFiles(dir, { "a.txt": "staged\n" });
    await git(dir, ["add", "a.txt"]);
    await writeFiles(dir, { "a.txt": "a\n" }); // working tree back as it was
    const r = await verify(dir, prompt);
    assertEquals(r.code, 1);
    assertMatch(r.stdout, /- a\.txt \(index\)\n/);
  }));

Deno.test("exact: the paths list is capped and says how many more", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    await writeFiles(
      dir,
      Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`n/${i}.txt`, `${i}\n`])),
    );
    const r = await verify(dir, prompt);
    assertEquals(r.code, 1);
    assertMatch(r.stdout, /- and 5 more\n$/);
  }));

Deno.test("exact: handshake --exact leaves the parent's tree, index, refs and stash untouched", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "staged\n", "c.txt": "c\n" });
    await git(dir, ["add", "a.txt", "c.txt"]);
    await writeFiles(dir, { "a.txt": "worktree\n", "u.txt": "u\n" });
    await git(dir, ["stash", "push", "-q", "--keep-index", "-m", "kept"]);
    await writeFiles(dir, { "a.txt": "after stash\n" });
    const snapshot = async () => ({
      index: await Deno.readFile(join(dir, ".git", "index")),
      status: await git(dir, ["status", "--porcelain=v2", "--untracked-files=all"]),
      refs: (await git(dir, ["for-each-ref", "--format=%(refname) %(objectname)"]))
        .split("\n").filter((l) => !l.startsWith("refs/tether/")),
      stash: await git(dir, ["stash", "list", "--format=%H %s"]),
      a: await Deno.readTextFile(join(dir, "a.txt")),
    });
    const before = await snapshot();
    const prompt = await exactPrompt(dir);
    assertEquals((await verify(dir, prompt)).code, 0);
    assertEquals(await snapshot(), before);
    const seed = /\nseed: ([0-9a-f]{40})\n/.exec(prompt)![1]!;
    assertEquals(await git(dir, ["rev-parse", `refs/tether/seeds/${seed}`]), seed);
  }));

Deno.test("exact: --count and --json carry one seed in every block", () =>
  withRepo(async (dir) => {
    const r = await bin("handshake", ["wrap", "--exact", "--count", "2", "--json"], {
      cwd: dir,
      stdin: "task",
    });
    assertEquals(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.blocks.length, 2);
    const seeds = doc.blocks.map((b: string) => /\nseed: (\S+)\n/.exec(b)![1]);
    assertEquals(seeds[0], seeds[1]);
    assertEquals(doc.fields.seed, seeds[0]);
    for (const prompt of doc.prompts) assertEquals((await verify(dir, prompt)).code, 0);
  }));

Deno.test("exact: --exact is refused with explicit fields", async () => {
  const r = await bin("handshake", [
    "--exact",
    "--head",
    "0".repeat(40),
    "--branch",
    "main",
    "--cwd",
    "/r",
    "--fingerprint",
    "e3b0c44298fc",
  ]);
  assertEquals(r.code, 2);
  assertMatch(r.stderr, /^error: --exact/);
});

Deno.test("exact: a v1 verifier never matches a v2 block (landed parser and bash recipe)", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const v1 = parseBlock(prompt);
    assertNotEquals(v1.kind, "block");
    // The seed's prose, in bash: take the lines between the v1 sentinels.
    const bash = await run("bash", [
      "-c",
      "sed -n '/<!-- subagent-env-handshake v1 -->/,/<!-- \\/subagent-env-handshake -->/p'",
    ], { stdin: prompt });
    assertEquals(bash.stdout, "", "no v1 block found: the missing path");
  }));

/** A v2 prompt whose seed is replaced by `seed`. */
function withSeed(prompt: string, seed: string): string {
  return prompt.replace(/\nseed: [0-9a-f]+\n/, `\nseed: ${seed}\n`);
}

async function assertRefused(dir: string, prompt: string, reason: RegExp) {
  const r = await verify(dir, prompt);
  assertEquals(r.code, 3, r.stdout);
  assertMatch(r.stdout, /^environment-unverified: /);
  assertMatch(r.stdout, reason);
}

Deno.test("exact: a missing seed takes the error path", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    await assertRefused(dir, withSeed(prompt, "1".repeat(40)), /seed 1{40} cannot be read/);
  }));

Deno.test("exact: a seed that exists only through git replace takes the error path", () =>
  withRepo(async (dir) => {
    const real = /\nseed: (\S+)\n/.exec(await exactPrompt(dir))![1]!;
    const fake = "2".repeat(40);
    await git(dir, ["update-ref", `refs/replace/${fake}`, real]);
    assertEquals(await git(dir, ["rev-parse", `${fake}^{tree}`]).then(Boolean), true);
    await assertRefused(
      dir,
      withSeed(await exactPrompt(dir), fake),
      /missing from this repository/,
    );
  }));

Deno.test("exact: a seed of the wrong object type, or a commit that is no seed, is refused", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const blob = await git(dir, ["rev-parse", "HEAD:a.txt"]);
    await assertRefused(dir, withSeed(prompt, blob), /cannot be read as a seed/);
    const head = await git(dir, ["rev-parse", "HEAD"]);
    await assertRefused(dir, withSeed(prompt, head), /not a tether seed/);
  }));

Deno.test("exact: a forged seed object (bytes that do not hash to its id) is refused", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "a.txt": "one\n" });
    const prompt = await exactPrompt(dir);
    const seed = /\nseed: (\S+)\n/.exec(prompt)![1]!;
    await writeFiles(dir, { "a.txt": "two\n" });
    const other = /\nseed: (\S+)\n/.exec(await exactPrompt(dir))![1]!;
    // Put the other seed's bytes in the first seed's loose object file.
    const path = (id: string) => join(dir, ".git", "objects", id.slice(0, 2), id.slice(2));
    await Deno.chmod(path(seed), 0o644);
    await Deno.writeFile(path(seed), await Deno.readFile(path(other)));
    await assertRefused(dir, prompt, /does not hash to its name/);
  }));

Deno.test("exact: a seed that records another HEAD than parent_head is refused", () =>
  withRepo(async (dir) => {
    const old = await exactPrompt(dir);
    await writeFiles(dir, { "a.txt": "next\n" });
    await git(dir, ["commit", "-qam", "next"]);
    const prompt = await exactPrompt(dir);
    const oldSeed = /\nseed: (\S+)\n/.exec(old)![1]!;
    await assertRefused(
      dir,
      withSeed(prompt, oldSeed),
      /records HEAD [0-9a-f]{40}, not parent_head/,
    );
  }));

Deno.test("exact: a seed of the other object format is refused", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const long = prompt.replace(/\nparent_head: [0-9a-f]+\n/, `\nparent_head: ${"a".repeat(64)}\n`)
      .replace(/\nseed: [0-9a-f]+\n/, `\nseed: ${"b".repeat(64)}\n`);
    await assertRefused(dir, long, /not a sha1 object id/);
  }));

/** A `git` on PATH that logs every start, then runs the real git. */
async function gitShim(): Promise<{ dir: string; log: string; env: Record<string, string> }> {
  const dir = await tempDir("tether-shim-");
  const real = (await run("bash", ["-c", "command -v git"])).stdout.trim();
  const log = join(dir, "calls.log");
  await Deno.writeTextFile(
    join(dir, "git"),
    `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(join(dir, "git"), 0o755);
  return { dir, log, env: { PATH: `${dir}:${Deno.env.get("PATH")}` } };
}

async function countCalls(
  shim: Awaited<ReturnType<typeof gitShim>>,
  body: () => Promise<unknown>,
): Promise<number> {
  await Deno.writeTextFile(shim.log, "");
  await body();
  return (await Deno.readTextFile(shim.log)).split("\n").filter(Boolean).length;
}

Deno.test("exact: capture and verify start as many git processes for 2,000 untracked files as for 10", async () => {
  const shim = await gitShim();
  const counts: number[][] = [];
  try {
    for (const n of [10, 2000]) {
      await withRepo(async (dir) => {
        await writeFiles(
          dir,
          Object.fromEntries(
            Array.from({ length: n }, (_, i) => [`u/${i % 40}/${i}.txt`, `${i}\n`]),
          ),
        );
        let prompt = "";
        const capture = await countCalls(shim, async () => {
          const r = await bin("handshake", ["wrap", "--exact"], {
            cwd: dir,
            stdin: "t",
            env: shim.env,
          });
          prompt = r.stdout;
        });
        const match = await countCalls(shim, async () => {
          assertEquals(
            (await bin("verify", [], { cwd: dir, stdin: prompt, env: shim.env })).code,
            0,
          );
        });
        await writeFiles(dir, { "u/0/0.txt": "changed\n" });
        const halt = await countCalls(shim, async () => {
          assertEquals(
            (await bin("verify", [], { cwd: dir, stdin: prompt, env: shim.env })).code,
            1,
          );
        });
        counts.push([capture, match, halt]);
      });
    }
  } finally {
    await Deno.remove(shim.dir, { recursive: true });
  }
  assertOk(counts[0]![0]! > 5, "the shim saw the calls");
  assertEquals(counts[1], counts[0]);
});

Deno.test("exact: prune-seeds deletes anchors older than the duration and keeps the rest", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const seed = /\nseed: (\S+)\n/.exec(prompt)![1]!;
    const kept = await bin("handshake", ["prune-seeds", "--json"], { cwd: dir });
    assertEquals(JSON.parse(kept.stdout), { pruned: [], kept: 1 });
    const gone = await bin("handshake", ["prune-seeds", "--older-than", "0s"], { cwd: dir });
    assertEquals([gone.code, gone.stdout], [0, "pruned 1 seed(s) older than 0s; kept 0\n"]);
    assertEquals(await git(dir, ["for-each-ref", "refs/tether/"]), "");
    await git(dir, ["reflog", "expire", "--expire=now", "--all"]);
    await git(dir, ["gc", "-q", "--prune=now"]);
    await assertRefused(dir, prompt, new RegExp(`seed ${seed} cannot be read`));
    const bad = await bin("handshake", ["prune-seeds", "--older-than", "soon"], { cwd: dir });
    assertEquals(bad.code, 2);
  }));

Deno.test("exact: works in a SHA-256 repository", async () => {
  const dir = await makeRepo({ objectFormat: "sha256" });
  try {
    const prompt = await exactPrompt(dir);
    assertMatch(prompt, /\nseed: [0-9a-f]{64}\n/);
    assertEquals((await verify(dir, prompt)).code, 0);
    await writeFiles(dir, { "README.md": "changed\n" });
    assertEquals((await verify(dir, prompt)).code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exact: a v2 block wins over a later quoted block, which is noted on stderr", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    const quoted = `${prompt}\n<!-- subagent-env-handshake v1 -->\nparent_head: x\n` +
      "<!-- /subagent-env-handshake -->\n";
    const r = await verify(dir, quoted);
    assertEquals(r.code, 0, r.stdout);
    assertMatch(r.stderr, /1 later handshake block ignored/);
  }));

Deno.test("exact: a parent in a subdirectory, verified from there and from the top level", () =>
  withRepo(async (dir) => {
    await writeFiles(dir, { "sub/s.txt": "s\n" });
    const sub = join(dir, "sub");
    const prompt = await exactPrompt(sub);
    assertEquals((await verify(sub, prompt)).code, 0);
    const top = JSON.parse((await verify(dir, prompt, true)).stdout);
    assertEquals([top.status, top.diverged], ["mismatch", ["parent_cwd"]]);
  }));

Deno.test("exact: outside a repository handshake --exact fails and wrap passes the prompt through", async () => {
  const dir = await tempDir();
  try {
    const plain = await bin("handshake", ["--exact"], { cwd: dir });
    assertEquals([plain.code, plain.stdout], [3, ""]);
    const wrap = await bin("handshake", ["wrap", "--exact"], { cwd: dir, stdin: "task\n" });
    assertEquals([wrap.code, wrap.stdout], [0, "task\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exact: a worktree-mode v2 block never matches in the parent's own tree", () =>
  withRepo(async (dir) => {
    const prompt = (await exactPrompt(dir)).replace(
      "workspace_mode: shared",
      "workspace_mode: worktree",
    )
      .replace(
        /(seed: .*\n)/,
        "$1worktree_path: /nowhere\nworktree_branch: tether/x\nworktree_cwd: /nowhere\n",
      );
    const r = await verify(dir, prompt);
    assertNotEquals(r.code, 0, r.stdout);
  }));

Deno.test("exact: a parallel batch of verifies after a sibling's scratch file all halt", () =>
  withRepo(async (dir) => {
    const prompt = await exactPrompt(dir);
    await writeFiles(dir, { "scratch.txt": "sibling output\n" });
    const runs = await Promise.all(Array.from({ length: 4 }, () => verify(dir, prompt)));
    assertEquals(runs.map((r) => r.code), [1, 1, 1, 1]);
    for (const r of runs) assertMatch(r.stdout, /- scratch\.txt \(working tree\)\n/);
  }));

Deno.test("exact: a parent in a linked worktree: its own private index, match and halt there", () =>
  withRepo(async (dir) => {
    const linked = `${dir}-linked`;
    await git(dir, ["worktree", "add", "-q", "-b", "side", linked]);
    try {
      await writeFiles(linked, { "a.txt": "linked edit\n" });
      const prompt = await exactPrompt(linked);
      assertEquals((await verify(linked, prompt)).code, 0);
      await writeFiles(linked, { "a.txt": "linked edit, again\n" });
      await assertHalts(linked, prompt, ["a.txt"]);
    } finally {
      await git(dir, ["worktree", "remove", "--force", linked]);
    }
  }));
