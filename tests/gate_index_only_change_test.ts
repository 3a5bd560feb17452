/**
 * A change that only the index or HEAD holds, where no file shows it, is observed by `gate
 * --since`: a committed change whose file is put back, a type or exec bit only the index
 * has, a repository or directory link under a name no index holds, an edit status is made
 * to compare through `ident`. And what no child did is no change: a staged entry outside
 * the sparse cone at spawn, a HEAD moved onto another branch; claims nested a thousand deep
 * stop gate with one line.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { childOfSpawn, claimA, gate, result, spawn } from "./_gate_fixture.ts";
import { git, makeRepo, writeFiles } from "./_helpers.ts";

const child = childOfSpawn;

Deno.test("a committed change whose file is put back is observed by gate --since", async () => {
  const { repo, since } = await child();
  try {
    await writeFiles(repo, { "b.ts": "evil()\n" });
    await git(repo, ["commit", "-q", "-am", "evil"]);
    await writeFiles(repo, { "b.ts": "b1\n" });
    const head = await git(repo, ["rev-parse", "HEAD"]);
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
    // A later commit that takes it back out again leaves nothing to see.
    await git(repo, ["commit", "-q", "-am", "undo"]);
    const undone = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(undone.report?.changes?.observed_unclaimed, [], undone.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a type or exec bit that only the index has is observed by gate --since", async () => {
  for (const move of ["link", "exec"]) {
    const { repo, since, head } = await child();
    try {
      const blob = await git(repo, ["rev-parse", "HEAD:b.ts"]);
      if (move === "link") {
        await git(repo, ["update-index", "--cacheinfo", `120000,${blob},b.ts`]);
      } else await git(repo, ["update-index", "--chmod=+x", "b.ts"]);
      const r = await gate(repo, claimA(head), ["--since", since]);
      assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], `${move}: ${r.stderr}`);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});

Deno.test("a repository or a link to a directory under a name no index holds is observed", async () => {
  const { repo, since, head } = await child();
  try {
    await Deno.mkdir(join(repo, ".GIT"));
    await git(join(repo, ".GIT"), ["init", "-q"]);
    await Deno.symlink("lib", join(repo, ".gIt"));
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, [".GIT", ".gIt"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a staged entry outside the sparse cone at spawn is no change for an idle child", async () => {
  const { repo, since, head } = await child(async (repo) => {
    await writeFiles(repo, { "keep/k.ts": "k\n" });
    await git(repo, ["add", "keep"]);
    await git(repo, ["commit", "-q", "-m", "keep"]);
    await writeFiles(repo, { "lib/c.ts": "c2\n" });
    await git(repo, ["commit", "-q", "-am", "c2"]);
    await git(repo, ["sparse-checkout", "set", "--cone", "keep"]);
    await git(repo, ["reset", "-q", "--soft", "HEAD~1"]);
  });
  try {
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, [], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("claims nested a thousand deep stop gate with one line (exit 3), not a crash", async () => {
  const { repo, since } = await child();
  try {
    const claims = Array.from({ length: 1000 }, (_, i) => Array(i + 1).fill("x").join("/"));
    const r = await gate(repo, result(claims, [{ kind: "file", ref: "a.ts", ok: true }]), [
      "--since",
      since,
    ]);
    assertEquals(r.code, 3, r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertEquals(r.stderr.includes("levels of paths that lie below one another"), true, r.stderr);
    // Two levels, as a directory replaced by a file makes, are read.
    const two = await gate(repo, result(["x", "x/x"], [{ kind: "file", ref: "a.ts", ok: true }]), [
      "--since",
      since,
    ]);
    assertEquals(two.report?.changes?.claimed_unobserved, ["x", "x/x"], two.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("an edit inside $Id: … $ that status is made to compare through ident is observed; a checkout is not", async () => {
  const { repo, since, head } = await child(async (repo) => {
    await writeFiles(repo, {
      "b.ts": "/* $Id$ */\nexport const b = 1;\n",
      "lib/c.ts": "/* $Id$ */\n",
    });
    await writeFiles(repo, { ".gitattributes": "lib/c.ts ident\n" });
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "id"]);
    // An honest checkout expands lib/c.ts's keyword.
    await Deno.remove(join(repo, "lib/c.ts"));
    await git(repo, ["checkout", "--", "lib/c.ts"]);
  });
  try {
    await writeFiles(repo, { "b.ts": "/* $Id: */ evil(); /* $ */\nexport const b = 1;\n" });
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "b.ts ident\n");
    const blob = await git(repo, ["rev-parse", "HEAD:b.ts"]);
    await git(repo, ["update-index", "--cacheinfo", `100644,${blob},b.ts`]); // no stat data
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(head), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a HEAD moved onto another branch makes no unchanged file new evidence", async () => {
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n" } });
  try {
    await git(repo, ["checkout", "-q", "-b", "other"]);
    await writeFiles(repo, { "b.ts": "b-other\n" });
    await git(repo, ["commit", "-q", "-am", "other"]);
    await git(repo, ["checkout", "-q", "main"]);
    const since = await spawn(repo);
    await git(repo, ["symbolic-ref", "HEAD", "refs/heads/other"]); // no file touched
    const r = await gate(repo, result(["b.ts"], [{ kind: "file", ref: "b.ts", ok: true }]), [
      "--since",
      since,
    ]);
    assertEquals(r.code, 1, r.stderr);
    assertEquals(r.report?.evidence?.[0]?.status, "preexisting", JSON.stringify(r.report));
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
