/**
 * `gate --worktree` counts evidence only for what the child did since its seed (review
 * worktree-2, finding 2), through the real entry points (`--allow-run=git` only): a commit
 * counts only when the child made it (one of its commits since the seed), a file only when
 * the child changed it; the parent's own HEAD and the parent's carried edits are
 * `preexisting`, and a result with nothing new as evidence is rejected and lands nothing.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, type Run, writeFiles } from "./_helpers.ts";
import { dirtyFamily, type Family } from "./_worktree_fixture.ts";

interface Child {
  path: string;
  seed: string;
}

async function spawn(f: Family, name: string): Promise<Child> {
  const r = await bin("handshake", ["--worktree", join(f.kids, name), "--json"], {
    cwd: f.parent,
  });
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return { path: doc.worktrees[0].path, seed: doc.seed };
}

function gate(f: Family, child: Child, result: object): Promise<Run> {
  return bin("gate", ["--worktree", child.path, "--seed", child.seed, "--land", "--json"], {
    cwd: f.parent,
    stdin: JSON.stringify({ ok: true, summary: "done", errors: [], ...result }),
  });
}

interface Verdict {
  verdict: string;
  reasons: string[];
  evidence: { kind: string; ref: string; status: string }[];
  land?: unknown;
}

function verdict(r: Run): Verdict {
  return JSON.parse(r.stdout);
}

const PREEXISTING = "No evidence item shows work done since spawn";

Deno.test("gate --worktree: the parent's pre-spawn HEAD is preexisting commit evidence, never the child's work", async () => {
  const f = await dirtyFamily();
  try {
    const old = await git(f.parent, ["rev-parse", "HEAD"]);
    const child = await spawn(f, "c1");
    await writeFiles(child.path, { "n.txt": "new\n" });
    const r = await gate(f, child, {
      files_changed: ["n.txt"],
      evidence: [{ kind: "commit", ref: old, ok: true }],
    });
    assertEquals(r.code, 1, r.stderr);
    const v = verdict(r);
    assertEquals(v.verdict, "reject");
    assertEquals(v.evidence, [{ kind: "commit", ref: old, status: "preexisting" }]);
    assertIncludes(v.reasons.join("\n"), PREEXISTING);
    assertEquals(v.land, undefined);
    // Nothing landed in the parent.
    assertEquals(await git(f.parent, ["status", "--porcelain", "--", "n.txt"]), "");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree: a commit the child made since its seed is verified and lands", async () => {
  const f = await dirtyFamily();
  try {
    const child = await spawn(f, "c1");
    await writeFiles(child.path, { "n.txt": "new\n" });
    await git(child.path, ["add", "n.txt"]);
    await git(child.path, ["commit", "-q", "-m", "child's work"]);
    const made = await git(child.path, ["rev-parse", "HEAD"]);
    const r = await gate(f, child, {
      files_changed: ["n.txt"],
      evidence: [{ kind: "commit", ref: made, ok: true }],
    });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const v = verdict(r);
    assertEquals(v.verdict, "accept");
    assertEquals(v.evidence, [{ kind: "commit", ref: made, status: "verified" }]);
    assertEquals(await Deno.readTextFile(join(f.parent, "n.txt")), "new\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree: a file the child never touched (the parent's carried edit) is preexisting, a file it changed is verified", async () => {
  const f = await dirtyFamily();
  try {
    const child = await spawn(f, "c1");
    await writeFiles(child.path, { "n.txt": "new\n" });
    // a.txt carries the parent's unstaged edit into the child, which leaves it alone.
    const r = await gate(f, child, {
      files_changed: ["n.txt"],
      evidence: [{ kind: "file", ref: "a.txt", ok: true }],
    });
    assertEquals(r.code, 1, r.stderr);
    const v = verdict(r);
    assertEquals(v.verdict, "reject");
    assertEquals(v.evidence, [{ kind: "file", ref: "a.txt", status: "preexisting" }]);
    assertIncludes(v.reasons.join("\n"), PREEXISTING);
    assertEquals(v.land, undefined);

    const ok = await gate(f, child, {
      files_changed: ["n.txt"],
      evidence: [{ kind: "file", ref: "n.txt", ok: true }],
    });
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertEquals(verdict(ok).evidence, [{ kind: "file", ref: "n.txt", status: "verified" }]);
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree: a child that changed nothing and made no commit is rejected, whatever old commit it cites", async () => {
  const f = await dirtyFamily();
  try {
    const old = await git(f.parent, ["rev-parse", "HEAD"]);
    const child = await spawn(f, "c1");
    const r = await gate(f, child, {
      summary: "all done",
      files_changed: [],
      evidence: [{ kind: "commit", ref: old, ok: true }],
    });
    assertEquals(r.code, 1, r.stderr);
    const v = verdict(r);
    assertEquals(v.verdict, "reject");
    assertEquals(v.evidence, [{ kind: "commit", ref: old, status: "preexisting" }]);
    assertIncludes(v.reasons.join("\n"), PREEXISTING);
  } finally {
    await f.cleanup();
  }
});
