/**
 * coord changes nothing but its own store: no ref, no reflog entry, no object, no
 * worktree file, no STATUS; and in a partial clone whose remote is gone it makes no fetch.
 *
 * @module
 */
import { join, relative } from "node:path";
import { assertEquals, assertExcludes, assertOk } from "../src/_assert.ts";
import { bin, git, tempDir, writeFiles } from "./_helpers.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";

/** Every file under a directory except the coord store: path → size and mtime, or content for small text. */
async function snapshotTree(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      const full = join(dir, entry.name);
      const rel = relative(root, full);
      if (/(^|\/)coord-lite(\/|$)/.test(rel)) continue;
      const info = await Deno.lstat(full);
      if (entry.isDirectory) {
        out.set(rel + "/", "dir");
        await walk(full);
      } else {
        out.set(rel, `${info.size} ${info.mtime?.getTime()} ${info.mode}`);
      }
    }
  };
  await walk(root);
  return out;
}

async function snapshotGit(dir: string, lanes: string[]): Promise<string> {
  const parts = [await git(dir, ["for-each-ref", "--format=%(refname) %(objectname)"])];
  parts.push(await git(dir, ["worktree", "list", "--porcelain"]));
  for (const reflog of lanes) {
    parts.push(await git(dir, ["log", "-g", "--format=%H %gD %gs", reflog]).catch(() => ""));
  }
  parts.push(await git(dir, ["count-objects", "-v"]));
  parts.push(await git(dir, ["show", "main:STATUS"]));
  return parts.join("\n---\n");
}

Deno.test("coord creates no ref, reflog entry, object, worktree file or STATUS change through a full exchange", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    const a = await repo.commit("W1", { "proof/w1.md": "W1 result\n" });
    const b = await repo.commit("W2", { "proof/w2.md": "W2 result\n" });
    const dirty = { "scratch.txt": "uncommitted\n" };
    await writeFiles(repo.wt.W1, dirty);
    await writeFiles(repo.wt.W3, dirty);
    // Released state is needed for the W3 part of the exchange; the policy commit is the fixture's, not coord's.
    await repo.setStatus(`blind: W1 W2\nreleased: W1 ${a}\nreleased: W2 ${b}\n`);
    const reflogs = [
      "main-worktree/HEAD",
      "worktrees/W1/HEAD",
      "worktrees/W2/HEAD",
      "worktrees/W3/HEAD",
      "refs/heads/main",
    ];
    const beforeGit = await snapshotGit(repo.wt.Primary, reflogs);
    const beforeFiles = await snapshotTree(repo.root);

    const ok = async (lane: "Primary" | "W1" | "W2" | "W3", args: string[], stdin = "") => {
      const r = await repo.coord(lane, args, stdin);
      assertEquals(r.code, 0, `${lane} coord ${args.join(" ")}: ${r.stderr}`);
      return r.stdout.trim();
    };
    const m1 = await ok(
      "W1",
      ["send", "E001", "--to", "Primary", "--subject", "private"],
      "derivation\n",
    );
    const h1 = await ok("W1", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      "HEAD",
      "--path",
      "proof/w1.md",
      "--subject",
      "A",
    ]);
    await ok("W2", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      b,
      "--path",
      "proof/w2.md",
      "--subject",
      "B",
    ]);
    await ok("W3", ["inbox", "E001"]);
    await ok("W3", ["read", h1]);
    await ok("W3", ["ack", h1]);
    await ok("W3", [
      "send",
      "E001",
      "--to",
      "W1",
      "--type",
      "QUESTION",
      "--subject",
      "why",
      "--reply-to",
      h1,
    ]);
    await ok("Primary", ["read", m1]);
    await ok("Primary", ["ack", m1]);
    await ok("Primary", ["status"]);
    await ok("Primary", ["status", "E001", "--json"]);
    await ok("W1", ["inbox", "E001", "--unacked", "--json"]);
    assertEquals(
      (await repo.coord("W2", [
        "handoff",
        "E001",
        "--to",
        "Primary",
        "--sha",
        a,
        "--path",
        "proof/w1.md",
        "--subject",
        "x",
      ])).code,
      4,
    );

    assertEquals(await snapshotGit(repo.wt.Primary, reflogs), beforeGit);
    const afterFiles = await snapshotTree(repo.root);
    assertEquals(
      [...afterFiles].filter(([k, v]) => beforeFiles.get(k) !== v),
      [],
      "changed or new files",
    );
    assertEquals([...beforeFiles.keys()].filter((k) => !afterFiles.has(k)), [], "removed files");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("coord in a partial clone whose remote is gone fetches nothing and still hands off and reads", async () => {
  const root = await tempDir("tether-coord-partial-");
  try {
    const source = join(root, "source");
    await Deno.mkdir(source);
    await git(source, ["init", "-q", "-b", "main"]);
    await git(source, ["config", "uploadpack.allowFilter", "true"]);
    await writeFiles(source, { "proof.md": "version 1\n" });
    await git(source, ["add", "-A"]);
    await git(source, ["commit", "-q", "-m", "v1"]);
    const base = await git(source, ["rev-parse", "HEAD"]);
    await writeFiles(source, {
      "proof.md": "version 2\n",
      STATUS: `lane: W1 ../W1\nlane: W3 ../W3\nbase: ${base}\n`,
    });
    await git(source, ["add", "-A"]);
    await git(source, ["commit", "-q", "-m", "v2 and STATUS"]);
    const clone = join(root, "Primary");
    await git(root, ["clone", "-q", "--filter=blob:none", `file://${source}`, clone]);
    await Deno.rename(source, join(root, "gone"));
    await Deno.remove(join(root, "gone"), { recursive: true });
    for (const lane of ["W1", "W3"]) {
      await git(clone, ["worktree", "add", "-q", "-b", lane, join(root, lane)]);
    }
    const promised = await git(clone, ["rev-parse", `${base}:proof.md`]);
    const refsBefore = await git(clone, ["for-each-ref"]);

    const coord = (lane: string, args: string[]) =>
      bin("coord", args, { cwd: join(root, lane), stdin: "" });
    // The blob of proof.md at the base commit was never fetched: the handoff must not need it.
    const h = await coord("W1", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      base,
      "--path",
      "proof.md",
      "--subject",
      "v1",
    ]);
    assertEquals(h.code, 0, h.stderr);
    const id = h.stdout.trim();
    const read = await coord("W3", ["read", id]);
    assertEquals(read.code, 0, read.stderr);
    assertOk(read.stdout.includes(`artifact-object: ${promised}`), read.stdout);
    assertOk(read.stdout.includes("not in the local object store"), read.stdout);
    const probe = await coord("W1", [
      "handoff",
      "E001",
      "--to",
      "W3",
      "--sha",
      promised,
      "--path",
      "x",
      "--subject",
      "x",
    ]);
    assertEquals(probe.code, 4, probe.stderr);
    const status = await coord("W1", ["status"]);
    assertEquals(status.code, 0, status.stderr);
    for (const r of [h, read, probe, status]) {
      assertExcludes(r.stderr.toLowerCase(), "fetch");
      assertExcludes(r.stderr.toLowerCase(), "remote");
    }
    assertEquals(await git(clone, ["for-each-ref"]), refsBefore);
    const still = await run404(clone, promised);
    assertOk(still, "the promised blob is still absent: nothing was fetched");
  } finally {
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
});

/** True when the object is still absent locally (checked without any fetch). */
async function run404(dir: string, oid: string): Promise<boolean> {
  const r = await new Deno.Command("git", {
    args: ["-C", dir, "cat-file", "-e", oid],
    env: { GIT_NO_LAZY_FETCH: "1" },
    stdout: "null",
    stderr: "null",
  }).output();
  return r.code !== 0;
}
