/**
 * The land never removes or overwrites what the parent holds outside the child's tracked
 * change, and never reports as landed what it cannot write (review worktree-2, findings 1
 * and 3), through the real entry points (`--allow-run=git` only):
 *
 * - an ignored file below a directory the child replaces by a file is in the way (1);
 * - a nested repository the child made is refused, shown by the plain gate, and its
 *   worktree kept (3).
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, commitAll, git, type Run, writeFiles } from "./_helpers.ts";
import {
  claimResult,
  committedFamily,
  exists,
  type Family,
  linkedWorktrees,
  text,
} from "./_worktree_fixture.ts";

/** A committed parent with an ignored secret rule, and a directory for its children. */
function family(files: Record<string, string> = {}): Promise<Family> {
  return committedFamily({ "a.txt": "one\ntwo\nthree\n", ".gitignore": "*.env\n", ...files });
}

interface Child extends Run {
  path: string;
  seed: string;
}

async function spawn(f: Family, name: string): Promise<Child> {
  const r = await bin("handshake", ["--worktree", join(f.kids, name), "--json"], {
    cwd: f.parent,
  });
  const doc = r.code === 0 ? JSON.parse(r.stdout) : undefined;
  return { ...r, path: doc?.worktrees[0].path ?? "", seed: doc?.seed ?? "" };
}

function gate(f: Family, child: Child, stdin: string, land = true, json = true): Promise<Run> {
  const args = ["--worktree", child.path, "--seed", child.seed, ...(land ? ["--land"] : [])];
  return bin("gate", [...args, ...(json ? ["--json"] : [])], { cwd: f.parent, stdin });
}

/** A result claiming `files`, with file evidence at the first. */
const result = (files: string[]) => claimResult(...files);

Deno.test("gate --worktree --land refuses when the parent's ignored file is below a directory the child replaces by a file (exit 1, nothing changed)", async () => {
  const f = await family({ "mix/t.txt": "tracked\n" });
  try {
    await writeFiles(f.parent, { "mix/s.env": "SECRET=only copy\n" });
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    await Deno.remove(join(child.path, "mix"), { recursive: true });
    await writeFiles(child.path, { "mix": "a file now\n" });
    const r = await gate(f, child, result(["mix", "mix/t.txt"]));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "accept");
    assertEquals(doc.land, { status: "refused", reason: "ignored", paths: ["mix/s.env"] });
    assertEquals(doc.recent_files, []);
    assertEquals(await text(f.parent, "mix/s.env"), "SECRET=only copy\n");
    assertEquals(await text(f.parent, "mix/t.txt"), "tracked\n");
    assertEquals(await linkedWorktrees(f.parent), [child.path]);
    const human = await gate(f, child, result(["mix", "mix/t.txt"]), true, false);
    assertEquals(human.code, 1);
    assertIncludes(
      human.stdout,
      "refused: nothing landed; the parent has ignored files or directories in the way: mix/s.env",
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree --land still lands beside an ignored file in a directory it keeps", async () => {
  const f = await family({ "mix/t.txt": "tracked\n" });
  try {
    await writeFiles(f.parent, { "mix/s.env": "SECRET=only copy\n" });
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    await writeFiles(child.path, { "mix/t.txt": "tracked, edited\n", "mix/u.txt": "new\n" });
    const r = await gate(f, child, result(["mix/t.txt", "mix/u.txt"]));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).land.status, "landed");
    assertEquals(await text(f.parent, "mix/s.env"), "SECRET=only copy\n");
    assertEquals(await text(f.parent, "mix/u.txt"), "new\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree refuses to land a nested repository the child made (exit 1, worktree kept, nothing changed) and the plain gate shows it", async () => {
  const f = await family();
  try {
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    const sub = join(child.path, "sub");
    await git(child.path, ["init", "-q", "sub"]);
    await writeFiles(sub, { "work.txt": "important child work\n" });
    await commitAll(sub, "work");
    await writeFiles(child.path, { "n.txt": "new\n" });
    const claimed = result(["n.txt", "sub"]);
    const plain = await gate(f, child, claimed, false, false);
    assertIncludes(
      plain.stdout,
      "cannot land: nested repositories (gitlinks) the child changed: sub",
    );
    const plainJson = JSON.parse((await gate(f, child, claimed, false)).stdout);
    assertEquals(plainJson.worktree.nested, ["sub"]);
    const r = await gate(f, child, claimed);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.land, { status: "refused", reason: "nested", paths: ["sub"] });
    assertEquals(doc.recent_files, []);
    assertEquals(await exists(join(f.parent, "sub")), false);
    assertEquals(await exists(join(f.parent, "n.txt")), false);
    assertEquals(await linkedWorktrees(f.parent), [child.path]);
    assertEquals(await text(sub, "work.txt"), "important child work\n");
    const human = await gate(f, child, claimed, true, false);
    assertEquals(human.code, 1);
    assertIncludes(
      human.stdout,
      "cannot land: git would write an empty directory, or delete the parent's or leave it behind; land the submodule change by hand: sub",
    );
    assertEquals(human.stdout.includes("landed:"), false, human.stdout);
  } finally {
    await f.cleanup();
  }
});
