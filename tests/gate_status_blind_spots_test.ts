/**
 * What `git status` can be made blind to is still observed by `gate --since`: a forged
 * untracked cache, names no index can hold (`.GIT`), a new repository under
 * `core.ignorecase` or outside the sparse-checkout patterns, an edit inside `$Id: … $` under
 * a planted `ident`, a blob staged with the worktree put back. And two honest states that
 * made gate stop no longer do: a directory replaced by a file, and the files outside a
 * sparse cone.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { childOfSpawn, claimA, gate, result } from "./_gate_fixture.ts";
import { bin, git, writeFiles } from "./_helpers.ts";

const child = childOfSpawn;

/** Drop `name` from directory `dir`'s untracked list in the index's untracked cache. */
async function forgeUntrackedCache(repo: string, dir: string, name: string): Promise<void> {
  const file = join(repo, ".git", "index");
  const index = await Deno.readFile(file);
  const text = new TextEncoder();
  const find = (needle: Uint8Array, from = 0) => {
    for (let i = from; i + needle.length <= index.length; i++) {
      if (needle.every((b, j) => index[i + j] === b)) return i;
    }
    return -1;
  };
  const at = find(text.encode("UNTR"));
  assertEquals(at > 0, true, "the index holds an untracked cache");
  const size = new DataView(index.buffer).getUint32(at + 4);
  const ext = index.slice(at + 8, at + 8 + size);
  const old = Uint8Array.from([1, 0, ...text.encode(dir), 0, ...text.encode(name), 0]);
  const start = (() => {
    for (let i = 0; i + old.length <= ext.length; i++) {
      if (old.every((b, j) => ext[i + j] === b)) return i;
    }
    return -1;
  })();
  assertEquals(start >= 0, true, "the cache lists the new file");
  const replaced = Uint8Array.from([
    ...ext.subarray(0, start),
    0,
    0,
    ...text.encode(dir),
    0,
    ...ext.subarray(start + old.length),
  ]);
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, replaced.length);
  const body = Uint8Array.from([
    ...index.subarray(0, at + 4),
    ...length,
    ...replaced,
    ...index.subarray(at + 8 + size, index.length - 20),
  ]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-1", body));
  await Deno.writeFile(file, Uint8Array.from([...body, ...digest]));
}

Deno.test("a file dropped from a forged untracked cache is observed by gate --since", async () => {
  const { repo, since, head } = await child();
  try {
    await git(repo, ["config", "core.untrackedCache", "true"]);
    await git(repo, ["config", "status.showUntrackedFiles", "all"]);
    await git(repo, ["status", "--porcelain"]); // the cache is written
    await writeFiles(repo, { "lib/evil.ts": "evil()\n" });
    await new Promise((r) => setTimeout(r, 1100)); // the directory's mtime is settled
    await git(repo, ["status", "--porcelain"]);
    await forgeUntrackedCache(repo, "lib", "evil.ts");
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["lib/evil.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("files whose names no index can hold (.GIT, src/.Git/x.ts) are observed by gate --since", async () => {
  const { repo, since, head } = await child();
  try {
    await writeFiles(repo, { ".GIT": "e\n", "src/.Git/x.ts": "evil()\n" });
    await Deno.symlink("a.ts", join(repo, ".Git"));
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(
      r.report?.changes?.observed_unclaimed,
      [".GIT", ".Git", "src/.Git/x.ts"],
      r.stderr,
    );
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("under core.ignorecase, a new repository B.TS beside an edited b.ts is observed by gate --since", async () => {
  const { repo, since, head } = await child();
  try {
    await git(repo, ["config", "core.ignorecase", "true"]);
    await writeFiles(repo, { "b.ts": "b2\n", "B.TS/x": "x\n" });
    await git(join(repo, "B.TS"), ["init", "-q"]);
    await git(join(repo, "B.TS"), ["add", "x"]);
    await git(join(repo, "B.TS"), [
      "-c",
      "user.name=x",
      "-c",
      "user.email=x@x",
      "commit",
      "-q",
      "-m",
      "x",
    ]);
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["B.TS", "b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a new repository outside the sparse-checkout patterns is observed by gate --since", async () => {
  const { repo, since, head } = await child();
  try {
    await git(repo, ["sparse-checkout", "set", "--no-cone", "/*", "!/evil"]);
    await writeFiles(repo, { "evil/x": "x\n" });
    await git(join(repo, "evil"), ["init", "-q"]);
    await git(join(repo, "evil"), ["add", "x"]);
    await git(join(repo, "evil"), [
      "-c",
      "user.name=x",
      "-c",
      "user.email=x@x",
      "commit",
      "-q",
      "-m",
      "x",
    ]);
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["evil"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("an edit inside $Id: … $ under a planted ident attribute is observed by gate --since", async () => {
  const { repo, since, head } = await child(async (repo) => {
    await writeFiles(repo, { "b.ts": "/* $Id$ */\nexport const b = 1;\n" });
    await git(repo, ["commit", "-q", "-am", "id"]);
  });
  try {
    await writeFiles(repo, { "b.ts": "/* $Id: */ evil(); /* $ */\nexport const b = 1;\n" });
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "b.ts ident\n");
    // A claim makes gate read the path and ask for its filtered id.
    const r = await gate(
      repo,
      result(["a.ts", "b.ts"], [{ kind: "commit", ref: head, ok: true }]),
      ["--since", since],
    );
    // The planted attribute is a conversion setting that changed since spawn: gate can no
    // longer tell a checkout's bytes from an edit, so neither claim is confirmed (tests/gate_conversions_test.ts).
    assertEquals(r.report?.changes?.confirmed, [], r.stderr);
    assertEquals(r.report?.changes?.claimed_unobserved, ["a.ts", "b.ts"], r.stderr);
    assertEquals(r.report?.reasons.some((x: string) => x.startsWith("Cannot tell whether")), true);
    const quiet = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(quiet.report?.changes?.observed_unclaimed, ["b.ts"], quiet.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a directory replaced by a file, not staged, is read on both sides (no exit 3)", async () => {
  const { repo, since, head } = await child();
  try {
    await Deno.remove(join(repo, "lib"), { recursive: true });
    await writeFiles(repo, { "lib": "q\n" });
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.report?.changes?.observed_unclaimed, ["lib", "lib/c.ts"], r.stderr);
    // The same state at spawn: the capture reads it too.
    const again = await bin("handshake", ["--json", "--context"], { cwd: repo });
    assertEquals(again.code, 0, again.stderr);
    const later = await gate(repo, claimA(head), ["--since", JSON.parse(again.stdout).snapshot_id]);
    assertEquals(later.report?.changes?.observed_unclaimed, [], later.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("in a sparse checkout, the files outside the cone are no change for a child that did nothing", async () => {
  const { repo, since, head } = await child(async (repo) => {
    await writeFiles(repo, { "keep/k.ts": "k\n" });
    await git(repo, ["add", "keep"]);
    await git(repo, ["commit", "-q", "-m", "keep"]);
    await git(repo, ["sparse-checkout", "set", "--cone", "keep"]);
  });
  try {
    assertEquals(await Deno.lstat(join(repo, "lib")).then(() => true, () => false), false);
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, [], r.stderr);
    // A file the child writes outside the cone is read, as any skip-worktree entry is.
    await writeFiles(repo, { "lib/c.ts": "evil()\n" });
    const written = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(written.report?.changes?.observed_unclaimed, ["lib/c.ts"], written.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a blob staged with the worktree put back, which the next commit would take, is observed by gate --since", async () => {
  const { repo, since, head } = await child(async (repo) => {
    await writeFiles(repo, { "lib/c.ts": "c-parent\n" }); // the parent's own edit, unstaged
  });
  try {
    const evil = await git(repo, ["hash-object", "-w", "--stdin"], "evil()\n");
    await git(repo, ["update-index", "--cacheinfo", `100644,${evil},b.ts`]);
    await git(repo, ["add", "lib/c.ts"]); // staging the parent's edit is no change
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
