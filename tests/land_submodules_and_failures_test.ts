/**
 * A land never overwrites a submodule or embedded repository, and says every failure after
 * its checkout as a land that wrote files, through the real binaries:
 *
 * - a landing path that is a gitlink in the parent (an embedded repository, a submodule)
 *   replaced by the child with a file or a link is refused, exit 1, nothing written: the
 *   nested repository (its `.git`, a commit found only there, an uncommitted edit, an
 *   untracked file) and the parent's own uncommitted work are intact;
 * - a child that removes a submodule gets the same clear refusal (not "a filter or
 *   conversion ran"), and a child that changes other files beside a submodule lands;
 * - a git failure after the checkout (a config line broken by a git shim at one exact call,
 *   as a child's watcher would) is said as a land that wrote files: undone when git runs
 *   again, named with the tree and a recipe that works when it does not; a checkout that
 *   fails after writing is undone too;
 * - a repository moved during the clean-up is never reported as removed or anchored;
 * - a scratch index swapped under the undo cannot choose the bytes it writes.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, gitShim, tempDir } from "./_helpers.ts";
import {
  exists,
  family,
  land,
  raceAt,
  recordRefs,
  spawn,
  TEN,
  text,
} from "./_land_race_fixture.ts";

const NESTED = "refused: nothing landed; nested repositories (gitlinks";
const BY_HAND = "land the submodule change by hand: sm";

/** The parent's own uncommitted work, made after the spawn. */
async function parentWork(parent: string): Promise<void> {
  await Deno.writeTextFile(join(parent, "f.txt"), TEN + "parent's uncommitted line\n");
  await Deno.writeTextFile(join(parent, "u.txt"), "parent's untracked file\n");
}

/** That work is as {@linkcode parentWork} left it. */
async function parentWorkIntact(parent: string): Promise<void> {
  assertEquals(await text(parent, "f.txt"), TEN + "parent's uncommitted line\n");
  assertEquals(await text(parent, "u.txt"), "parent's untracked file\n");
}

/** A one-commit repository holding s.txt, to add as a submodule. */
async function upstream(): Promise<string> {
  const dir = await tempDir("tether-upstream-");
  await git(dir, ["init", "-q", "-b", "main"]);
  await Deno.writeTextFile(join(dir, "s.txt"), "v1\n");
  await git(dir, ["add", "-A"]);
  await git(dir, ["commit", "-q", "-m", "one"]);
  return dir;
}

/** `git submodule add` of `from` at `path` in `parent`, committed. */
async function addSubmodule(parent: string, from: string, path: string): Promise<void> {
  await git(parent, ["-c", "protocol.file.allow=always", "submodule", "add", "-q", from, path]);
  await git(parent, ["commit", "-q", "-m", `submodule ${path}`]);
}

Deno.test("an embedded repository of the parent replaced by a file is refused: the repository and the parent's work intact", async () => {
  const f = await family();
  try {
    const sm = join(f.parent, "sm");
    await git(f.parent, ["init", "-q", "-b", "main", "sm"]);
    await Deno.writeTextFile(join(sm, "s.txt"), "v1\n");
    await git(sm, ["add", "-A"]);
    await git(sm, ["commit", "-q", "-m", "one"]);
    await Deno.writeTextFile(join(sm, "s.txt"), "v2\n");
    await git(sm, ["commit", "-q", "-am", "two: only in sm/.git"]);
    await git(f.parent, ["-c", "advice.addEmbeddedRepo=false", "add", "sm"]);
    await git(f.parent, ["commit", "-q", "-m", "sm"]);
    const [child, seed] = await spawn(f, "c1");
    await parentWork(f.parent);
    await Deno.writeTextFile(join(sm, "s.txt"), "v2\nuncommitted in sm\n");
    await Deno.writeTextFile(join(sm, "untracked.txt"), "notes\n");
    await Deno.remove(join(child, "sm"));
    await Deno.writeTextFile(join(child, "sm"), "a file now\n");
    const r = await land(f, child, seed, ["sm"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertIncludes(r.stdout, NESTED);
    assertIncludes(r.stdout, BY_HAND);
    assertEquals(r.stdout.includes("landed:"), false, r.stdout);
    assertOk((await Deno.lstat(join(sm, ".git"))).isDirectory, "sm/.git is gone");
    assertEquals(await git(sm, ["log", "--format=%s"]), "two: only in sm/.git\none");
    assertEquals(await text(sm, "s.txt"), "v2\nuncommitted in sm\n");
    assertEquals(await text(sm, "untracked.txt"), "notes\n");
    await parentWorkIntact(f.parent);
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a submodule replaced by a link is refused, with a second one removed: the submodule's work intact", async () => {
  const f = await family();
  const from = await upstream();
  try {
    await addSubmodule(f.parent, from, "sm");
    await addSubmodule(f.parent, from, "sm2");
    const [child, seed] = await spawn(f, "c1");
    await parentWork(f.parent);
    const sm = join(f.parent, "sm");
    await Deno.writeTextFile(join(sm, "s.txt"), "v1\nuncommitted in sm\n");
    await Deno.writeTextFile(join(sm, "untracked.txt"), "notes\n");
    await Deno.remove(join(child, "sm"));
    await Deno.symlink("../elsewhere", join(child, "sm"));
    await git(child, ["rm", "-q", "sm2"]);
    const r = await land(f, child, seed, [".gitmodules", "sm", "sm2"]);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertIncludes(r.stdout, NESTED);
    assertIncludes(r.stdout, "by hand: sm, sm2");
    assertEquals(await text(sm, "s.txt"), "v1\nuncommitted in sm\n");
    assertEquals(await text(sm, "untracked.txt"), "notes\n");
    assertEquals(await text(join(f.parent, "sm2"), "s.txt"), "v1\n");
    assertEquals((await Deno.lstat(sm)).isDirectory, true);
    assertIncludes(await text(f.parent, ".gitmodules"), "sm2");
    await parentWorkIntact(f.parent);
  } finally {
    await f.cleanup();
    await Deno.remove(from, { recursive: true }).catch(() => {});
  }
});

Deno.test("a child that removes a submodule is refused with the clear message, nothing written; one that changes other files lands", async () => {
  const f = await family();
  const from = await upstream();
  try {
    await addSubmodule(f.parent, from, "sm");
    const [remover, seed] = await spawn(f, "c1");
    const [other, otherSeed] = await spawn(f, "c2");
    await git(remover, ["rm", "-q", "sm"]);
    await Deno.writeTextFile(join(remover, "n.txt"), "x\n");
    const gitmodules = await text(f.parent, ".gitmodules");
    for (const attempt of [1, 2]) {
      const r = await land(f, remover, seed, ["n.txt", "sm", ".gitmodules"]);
      assertEquals(r.code, 1, `land ${attempt}: ${r.stdout}${r.stderr}`);
      assertIncludes(r.stdout, NESTED);
      assertIncludes(r.stdout, BY_HAND);
      assertEquals(r.stderr.includes("filter or conversion"), false, r.stderr);
      assertEquals(await exists(join(f.parent, "n.txt")), false, "n.txt was written");
      assertEquals(await text(f.parent, ".gitmodules"), gitmodules);
      assertEquals(await text(join(f.parent, "sm"), "s.txt"), "v1\n");
    }
    // A correct child beside the submodule: no false halt.
    await Deno.writeTextFile(join(other, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(other, "g.txt"), "g\n");
    const ok = await land(f, other, otherSeed, ["f.txt", "g.txt"]);
    assertEquals(ok.code, 0, ok.stdout + ok.stderr);
    assertIncludes(ok.stdout, "landed: 2 paths: f.txt, g.txt");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
    assertEquals(await text(join(f.parent, "sm"), "s.txt"), "v1\n");
  } finally {
    await f.cleanup();
    await Deno.remove(from, { recursive: true }).catch(() => {});
  }
});

/**
 * A git shim that breaks the parent's config (appends `[broken`) at the `nth` call matching
 * `when` (a `case` pattern of `" $* "`): `after` it has run (with `repair`, the next git
 * call to start then runs broken too, and the line is taken out after it: git can run again
 * for the undo), or `during` it (that call alone runs broken: repaired after it).
 */
function breakConfig(
  parent: string,
  when: string,
  options: { nth?: number; during?: boolean; repair?: boolean } = {},
): Promise<{ dir: string; env: Record<string, string> }> {
  const config = join(parent, ".git", "config");
  const brk = `printf '[broken\\n' >> '${config}'`;
  const fix = `sed -i '$d' '${config}'`;
  const at = options.during
    ? `${brk}; "$REAL" "$@"; rc=$?; ${fix}; exit $rc`
    : `"$REAL" "$@"; rc=$?; ${brk}; touch "$DIR/broken"; exit $rc`;
  return gitShim(`if ${options.repair ? 'mv "$DIR/broken" "$DIR/taken" 2>/dev/null' : "false"}; then
  "$REAL" "$@"; rc=$?; ${fix}; exit $rc
fi
case " $* " in
  ${when})
    n=$(cat "$DIR/n" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "$DIR/n"
    if [ $n = ${options.nth ?? 1} ]; then ${at}; fi ;;
esac`);
}

Deno.test("a config broken right after the checkout: the land is said as written, and undone once git runs again", async () => {
  const f = await family();
  const shim = await breakConfig(f.parent, '*" read-tree -m -u "*', { repair: true });
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, "n.txt"), "from the child\n");
    const r = await land(f, child, seed, ["f.txt", "n.txt"], { env: shim.env, args: ["--keep"] });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(
      r.stderr,
      `the land wrote f.txt, n.txt into ${f.parent}, but its read-back failed`,
    );
    assertIncludes(r.stderr, "bad config line");
    assertIncludes(r.stderr, "the land was undone: f.txt, n.txt read back as before the land");
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await exists(join(f.parent, "n.txt")), false, "n.txt was left");
    assertEquals(r.stdout.includes("land record:"), false, r.stdout);
    assertEquals(await recordRefs(f.parent), "");
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a config left broken after the checkout: the paths, the top level, git's error and a recipe from the tree before the land", async () => {
  const f = await family({ "f.txt": TEN, "x.sh": "#!/bin/sh\n", "old.txt": "old\n" });
  const shim = await breakConfig(f.parent, '*" read-tree -m -u "*');
  const config = join(f.parent, ".git", "config");
  f.undo.push(async () => {
    const lines = (await Deno.readTextFile(config)).split("\n");
    await Deno.writeTextFile(config, lines.filter((l) => l !== "[broken").join("\n"));
  });
  try {
    await Deno.chmod(join(f.parent, "x.sh"), 0o755);
    await git(f.parent, ["add", "x.sh"]);
    await git(f.parent, ["commit", "-q", "-m", "exec"]);
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, "x.sh"), "#!/bin/sh\necho child\n");
    await Deno.remove(join(child, "old.txt"));
    await Deno.writeTextFile(join(child, "n.txt"), "from the child\n");
    const claims = ["f.txt", "n.txt", "old.txt", "x.sh"];
    const r = await land(f, child, seed, claims, { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    assertIncludes(
      r.stderr,
      `error: Cannot evaluate: the land wrote f.txt, n.txt, old.txt, x.sh into ${f.parent}, but its read-back failed`,
    );
    assertIncludes(r.stderr, "bad config line");
    assertIncludes(r.stderr, "the land could not be undone");
    const tree = /as before the land they are in the tree ([0-9a-f]{40}): /.exec(r.stderr)?.[1];
    assertOk(tree !== undefined, r.stderr);
    assertIncludes(r.stderr, `git cat-file blob ${tree}:PATH > PATH`);
    assertEquals(await text(f.parent, "n.txt"), "from the child\n", "the land did not write");
    await f.undo[0]!();
    // The tree named holds the parent's files as they were before the land.
    assertEquals(await git(f.parent, ["cat-file", "blob", `${tree}:f.txt`]) + "\n", TEN);
    assertEquals(await git(f.parent, ["cat-file", "blob", `${tree}:old.txt`]), "old");
    assertIncludes(await git(f.parent, ["ls-tree", tree!, "x.sh"]), "100755 blob");
    assertEquals(await git(f.parent, ["ls-tree", tree!, "n.txt"]), "");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a config broken before the last check: said as a written land and undone", async () => {
  const f = await family();
  // check-attr runs before the merge, before the checkout, after the read-back, in the undo.
  const shim = await breakConfig(f.parent, '*" check-attr "*', {
    nth: 3,
    during: true,
  });
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(
      r.stderr,
      `the land wrote f.txt into ${f.parent}, but its check after the read-back failed`,
    );
    assertIncludes(r.stderr, "the land was undone: f.txt read back as before the land");
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a checkout that fails after writing is undone; one git refuses writes nothing and keeps the parent's edit", async () => {
  const f = await family();
  const shim = await raceAt("read-tree -m -u", "", "rc=128");
  const edit = await raceAt("read-tree -m -u", "printf 'edited meanwhile\\n' >> f.txt");
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, "n.txt"), "n\n");
    const r = await land(f, child, seed, ["f.txt", "n.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(
      r.stderr,
      `the land wrote f.txt, n.txt into ${f.parent}, but its checkout failed`,
    );
    assertIncludes(r.stderr, "the land was undone: f.txt, n.txt read back as before the land");
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await exists(join(f.parent, "n.txt")), false, "n.txt was left");
    // The parent's user edits f.txt as the checkout starts: git refuses and writes nothing,
    // its refusal is said in tether's words, and nothing is "undone" over the parent's edit.
    const refused = await land(f, child, seed, ["f.txt", "n.txt"], { env: edit.env });
    assertEquals(refused.code, 3, refused.stdout + refused.stderr);
    assertEquals(refused.stderr.includes("the land wrote"), false, refused.stderr);
    // git's refusal in tether's words, never git's own text.
    assertIncludes(refused.stderr, '"f.txt" changed in the parent while the land ran');
    assertEquals(/exited with|not uptodate/.test(refused.stderr), false, refused.stderr);
    assertEquals(await text(f.parent, "f.txt"), TEN + "edited meanwhile\n");
    assertEquals(await exists(join(f.parent, "n.txt")), false, "n.txt was written");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(edit.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

/** A bare clone of `parent` to point a planted commondir file at. */
async function decoyRepository(parent: string): Promise<string> {
  const dir = await tempDir("tether-decoy-");
  await git(dir, ["clone", "-q", "--bare", parent, join(dir, "decoy.git")]);
  return join(dir, "decoy.git");
}

Deno.test("a commondir written during the clean-up: gate never prints the removal", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  const shim = await raceAt("worktree remove", `printf '%s\\n' '${decoy}' > .git/commondir`);
  f.undo.push(() => Deno.remove(planted));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: f.txt");
    assertEquals(r.stdout.includes("removed: worktree and branch"), false, r.stdout);
    assertIncludes(r.stdout, "what was removed may have been another repository's");
    assertIncludes(r.stderr, `common dir "${decoy}"`);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a commondir written before the clean-up of a child with nothing to land: nothing removed", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  f.undo.push(() => Deno.remove(planted));
  // gate's last call before the clean-up: its look for a land record ref.
  const shim = await gitShim(`case " $* " in
  *" for-each-ref --format=%(refname) refs/tether/landed/"*) printf '%s\\n' '${decoy}' > .git/commondir ;;
esac`);
  try {
    const [child, seed] = await spawn(f, "c1");
    const nothing = JSON.stringify({
      ok: true,
      summary: "nothing to change",
      files_changed: [],
      errors: [],
      evidence: [{ kind: "test", ref: "deno test", ok: true }],
    });
    const r = await bin(
      "gate",
      ["--worktree", child, "--seed", seed, "--land", "--accept-unverified"],
      { cwd: f.parent, stdin: nothing, env: shim.env },
    );
    assertIncludes(r.stdout, "landed: nothing");
    assertEquals(r.stdout.includes("removed: worktree and branch"), false, r.stdout);
    assertIncludes(r.stdout, `common dir "${decoy}"`);
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a commondir written as a kept land anchors its record: not said to be anchored", async () => {
  const f = await family();
  const decoy = await decoyRepository(f.parent);
  const planted = join(f.parent, ".git", "commondir");
  const shim = await raceAt("update-ref -m", `printf '%s\\n' '${decoy}' > .git/commondir`);
  f.undo.push(() => Deno.remove(planted));
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env, args: ["--keep"] });
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stderr, "could not anchor its record (meanwhile git run in");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await Deno.remove(join(decoy, ".."), { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("a scratch index swapped under the undo cannot choose the bytes it writes", async () => {
  const f = await family();
  // The conversion raced in as the checkout starts and erased after it (the land is then
  // undone), and the undo's restore handed an index naming bytes of the child's choice at
  // its index path (what a watcher of objects/ could do between two of the undo's calls).
  const shim = await gitShim(`case " $* " in
  *" read-tree -m -u "*)
    printf 'f.txt eol=crlf\\n' > .git/info/attributes; "$REAL" "$@"; rc=$?
    rm -f .git/info/attributes; exit $rc ;;
  *" restore "*)
    h=$(printf 'planted\\n' | "$REAL" hash-object -w --stdin)
    printf '100644 %s\\tf.txt\\n' "$h" | "$REAL" update-index --add --index-info ;;
esac`);
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await land(f, child, seed, ["f.txt"], { env: shim.env });
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "the land was undone: f.txt read back as before the land");
    assertEquals(await text(f.parent, "f.txt"), TEN, "the undo wrote the planted bytes");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});
