/**
 * A child cannot hide an unclaimed change from `gate --since` with what makes `git status`
 * silent about it.
 *
 * A commit-graph is a cache in the object directory that a child can rewrite, and git takes
 * a commit's root tree from it without checking it against the commit. A graph that gives
 * the child's HEAD commit the tree of the child's index hides a staged change from `git
 * status`, so gate would not see the change at all. No git call of tether's reads a
 * commit-graph (`core.commitGraph=false` among the hardening options).
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { gate, result, spawn } from "./_gate_fixture.ts";
import { bin, git, makeRepo, writeFiles } from "./_helpers.ts";

/** The child's result: it changed and committed `a.ts`, and says nothing of anything else. */
const claimA = (head: string) =>
  result(["a.ts"], [{ kind: "commit", ref: head, ok: true }, {
    kind: "file",
    ref: "a.ts",
    ok: true,
  }]);

/** Rewrite the repository's commit-graph so that `commit` names `tree` as its root tree. */
async function forgeGraph(repo: string, commit: string, tree: string): Promise<void> {
  await git(repo, ["commit-graph", "write", "--reachable"]);
  const file = join(repo, ".git", "objects", "info", "commit-graph");
  const graph = await Deno.readFile(file);
  const hex = (id: string) => Uint8Array.from(id.match(/../g)!.map((b) => parseInt(b, 16)));
  const real = hex(await git(repo, ["rev-parse", `${commit}^{tree}`]));
  let at = -1;
  for (let i = 0; i + real.length <= graph.length && at < 0; i++) {
    if (real.every((b, j) => graph[i + j] === b)) at = i;
  }
  if (at < 0) throw new Error("the graph does not hold the commit's tree");
  graph.set(hex(tree), at);
  await Deno.writeFile(file, graph);
}

Deno.test("a forged commit-graph does not hide a child's staged change from gate --since", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n" } });
  try {
    const since = await spawn(repo);
    await writeFiles(repo, { "a.ts": "a2\n" });
    await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
    const head = await git(repo, ["rev-parse", "HEAD"]);
    await writeFiles(repo, { "b.ts": "b2\n" });
    await git(repo, ["add", "b.ts"]);
    await forgeGraph(repo, head, await git(repo, ["write-tree"]));
    // The forgery works on git itself: the user's own status sees nothing.
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    // tether's own status does, so the working context a parent hands on counts it too.
    const context = await bin("handshake", ["--json", "--context"], { cwd: repo });
    assertEquals(
      JSON.parse(context.stdout).context_block.includes("\n  staged: 1\n"),
      true,
      context.stdout,
    );
    const r = await gate(
      repo,
      result(["a.ts"], [{ kind: "commit", ref: head, ok: true }, {
        kind: "file",
        ref: "a.ts",
        ok: true,
      }]),
      ["--since", since],
    );
    assertEquals(r.report?.changes, {
      confirmed: ["a.ts"],
      claimed_unobserved: [],
      observed_unclaimed: ["b.ts"],
    }, r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

for (const bit of ["--assume-unchanged", "--skip-worktree"]) {
  Deno.test(`a child's change to a file it marks ${bit} is observed by gate --since`, async () => {
    const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n", "c.ts": "c1\n" } });
    try {
      const since = await spawn(repo);
      await writeFiles(repo, { "a.ts": "a2\n" });
      await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
      await writeFiles(repo, { "b.ts": "b2\n" });
      await Deno.remove(join(repo, "c.ts"));
      await git(repo, ["update-index", bit, "b.ts", "c.ts"]);
      assertEquals(await git(repo, ["status", "--porcelain"]), "");
      const r = await gate(repo, claimA(await git(repo, ["rev-parse", "HEAD"])), [
        "--since",
        since,
      ]);
      assertEquals(r.report?.changes, {
        confirmed: ["a.ts"],
        claimed_unobserved: [],
        observed_unclaimed: ["b.ts", "c.ts"],
      }, r.stderr);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  });
}

Deno.test("a same-size edit with its mtime put back, under weakened stat checks, is observed by gate --since", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n" } });
  try {
    const old = new Date("2020-01-01T00:00:00Z");
    await Deno.utime(join(repo, "b.ts"), old, old);
    await git(repo, ["update-index", "--refresh"]); // no racy entry: stat data alone decides
    const since = await spawn(repo);
    await writeFiles(repo, { "a.ts": "a2\n" });
    await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
    await git(repo, ["config", "core.trustctime", "false"]);
    await git(repo, ["config", "core.checkStat", "minimal"]);
    // The edit's ctime is a later second than the index records: what the full check sees.
    await new Promise((r) => setTimeout(r, 1100));
    await writeFiles(repo, { "b.ts": "b9\n" });
    await Deno.utime(join(repo, "b.ts"), old, old);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(await git(repo, ["rev-parse", "HEAD"])), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a moved submodule pointer hidden by diff.ignoreSubmodules is observed by gate --since", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a1\n" } });
  try {
    const sub = join(repo, "sub");
    await Deno.mkdir(sub);
    await git(sub, ["init", "-q", "-b", "main"]);
    await git(sub, ["commit", "-q", "--allow-empty", "-m", "s1"]);
    await git(repo, ["add", "sub"]);
    await git(repo, ["commit", "-q", "-m", "sub"]);
    const since = await spawn(repo);
    await writeFiles(repo, { "a.ts": "a2\n" });
    await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
    await git(sub, ["commit", "-q", "--allow-empty", "-m", "s2"]);
    await git(repo, ["config", "diff.ignoreSubmodules", "all"]);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(await git(repo, ["rev-parse", "HEAD"])), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["sub"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

/** A loose object's bytes: `<type> <size>\0<content>`, zlib-deflated as git stores them. */
async function looseObject(type: string, content: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const header = new TextEncoder().encode(`${type} ${content.length}\0`);
  const stream = new Blob([header, content]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Commit `lib/c.ts` and `a.ts`, spawn, and let the child commit its claimed `a.ts`. */
async function childWithLib(): Promise<{ repo: string; since: string; head: string }> {
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n", "lib/c.ts": "c1\n" } });
  const since = await spawn(repo);
  await writeFiles(repo, { "a.ts": "a2\n" });
  await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
  return { repo, since, head: await git(repo, ["rev-parse", "HEAD"]) };
}

Deno.test("a forged subtree object that hides a staged change stops gate --since (exit 3)", async () => {
  const { repo, since, head } = await childWithLib();
  try {
    await writeFiles(repo, { "lib/c.ts": "c9, a much longer line\n" });
    await git(repo, ["add", "lib/c.ts"]);
    // HEAD's `lib` tree, the same in both HEADs, rewritten to hold the staged blob.
    const lib = await git(repo, ["rev-parse", "HEAD:lib"]);
    const staged = await git(repo, ["write-tree", "--prefix=lib/"]);
    const content = await new Deno.Command("git", {
      args: ["cat-file", "tree", staged],
      cwd: repo,
      stdout: "piped",
    }).output();
    const file = join(repo, ".git", "objects", lib.slice(0, 2), lib.slice(2));
    await Deno.remove(file);
    await Deno.writeFile(file, await looseObject("tree", content.stdout));
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.code, 3, r.stderr);
    assertEquals(r.stderr.includes(`object "${lib}" does not hash to its id`), true, r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a forged cache-tree that hides a staged change is observed by gate --since", async () => {
  const { repo, since, head } = await childWithLib();
  try {
    await writeFiles(repo, { "lib/c.ts": "c9\n" });
    await git(repo, ["add", "lib/c.ts"]);
    await git(repo, ["write-tree"]); // the index now records every directory's tree
    const hex = (id: string) => Uint8Array.from(id.match(/../g)!.map((b) => parseInt(b, 16)));
    const real = hex(await git(repo, ["write-tree", "--prefix=lib/"]));
    const fake = hex(await git(repo, ["rev-parse", "HEAD:lib"]));
    const file = join(repo, ".git", "index");
    const index = await Deno.readFile(file);
    let at = -1;
    for (let i = 0; i + real.length <= index.length && at < 0; i++) {
      if (real.every((b, j) => index[i + j] === b)) at = i;
    }
    assertEquals(at > 0, true, "the index's cache-tree names lib/");
    index.set(fake, at);
    const body = index.subarray(0, index.length - 20);
    index.set(new Uint8Array(await crypto.subtle.digest("SHA-1", body)), index.length - 20);
    await Deno.writeFile(file, index);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["lib/c.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a nested repository without a commit, created by the child, is observed by gate --since", async () => {
  const { repo, since, head } = await childWithLib();
  try {
    await Deno.mkdir(join(repo, "nd"));
    await git(join(repo, "nd"), ["init", "-q"]);
    await writeFiles(repo, { "nd/payload.ts": "x\n" });
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["nd"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("new names that differ from tracked ones only in case, under core.ignorecase, are observed by gate --since", async () => {
  const { repo, since, head } = await childWithLib();
  try {
    await git(repo, ["config", "core.ignorecase", "true"]);
    await writeFiles(repo, { "B.TS": "x\n", "LIB/c.ts": "x\n" });
    const cased = (await Deno.lstat(join(repo, "b.ts"))).ino !==
      (await Deno.lstat(join(repo, "B.TS"))).ino;
    if (cased) assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(
      r.report?.changes?.observed_unclaimed,
      cased ? ["B.TS", "LIB/c.ts"] : ["b.ts", "lib/c.ts"],
      r.stderr,
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("core.ignoreStat in the shared config neither stops gate --since nor hides a change", async () => {
  const { repo, since, head } = await childWithLib();
  try {
    await git(repo, ["config", "core.ignoreStat", "true"]);
    await writeFiles(repo, { "b.ts": "b2\n" });
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a clean filter the child plants that prints a same-size edit's old content does not hide it from gate --since", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n" } });
  try {
    const old = new Date("2020-01-01T00:00:00Z");
    await Deno.utime(join(repo, "b.ts"), old, old);
    await git(repo, ["update-index", "--refresh"]); // stat data decides: the edit is looked at
    const since = await spawn(repo);
    await writeFiles(repo, { "a.ts": "a2\n" });
    await git(repo, ["commit", "-q", "-m", "child", "a.ts"]);
    const marker = join(repo, ".git", "clean-ran");
    await git(repo, ["config", "filter.h.clean", `touch '${marker}'; cat >/dev/null; echo b1`]);
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "b.ts filter=h\n");
    await writeFiles(repo, { "b.ts": "b9\n" });
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    await Deno.remove(marker);
    const r = await gate(repo, claimA(await git(repo, ["rev-parse", "HEAD"])), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
    // gate's own status ran no filter the child wrote.
    assertEquals(await Deno.lstat(marker).then(() => true, () => false), false);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
