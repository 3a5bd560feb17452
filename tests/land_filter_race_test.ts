/**
 * A filter the shared `.git` names, raced or planted, never decides what lands or what gate
 * reads, through the real binaries (`--allow-run=git` only), each in a throwaway repository.
 *
 * - a `filter` attribute at a landing path never runs its driver: the name is pinned to none
 *   and the raw bytes land (the parent's own committed `filter=lfs` included); a name that
 *   cannot be pinned (`x=y`) is refused, exit 3, nothing lands.
 * - bytes the checkout wrote that are not the merged tree's are caught after it (exit 3
 *   naming the path; no record, the child stays). The rewrite is made deterministic by a git
 *   shim that appends a byte after the land's `read-tree -m -u`.
 * - in shared mode, a planted clean filter cannot prove a changed file unchanged.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { git, gitShim, makeRepo, writeFiles } from "./_helpers.ts";
import {
  committedFamily,
  exists,
  type Family,
  landChild,
  plantAttributes,
  plantConfig,
  spawnChild,
  TEN,
  text,
} from "./_worktree_fixture.ts";
import { gate, result as gateResult, spawn as contextSpawn } from "./_gate_fixture.ts";

/** A committed parent with `files` (f.txt of ten lines by default) and a directory for children. */
function family(files: Record<string, string> = { "f.txt": TEN }): Promise<Family> {
  return committedFamily(files);
}

Deno.test("a filter attribute with its smudge in the shared .git lands the raw bytes; the smudge never runs", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawnChild(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const marker = join(f.kids, "smudge-ran");
    await plantAttributes(child, "f.txt filter=sm\n");
    await plantConfig(
      child,
      "filter.sm.smudge",
      `sh -c 'echo smudge >> ${marker}; sed s/child/SMUDGED/'`,
    );
    const r = await landChild(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: f.txt");
    assertEquals(await exists(marker), false, "the child's smudge ran inside gate");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a filter attribute whose name cannot be pinned is refused; a smudge raced in never runs", async () => {
  const f = await family();
  // The driver appears in the shared config only once the land's checkout starts, so only
  // the attribute check stands between it and the checkout: `-c filter.x=y.smudge=` would
  // set the key `filter.x`, and pin nothing.
  const marker = join(f.kids, "smudge-ran");
  const config = join(f.parent, ".git", "config");
  const shim = await gitShim(`case " $* " in
  *" read-tree -m -u "*) "$REAL" config --file '${config}' 'filter.x=y.smudge' "sh -c 'echo smudge >> ${marker}; sed s/child/SMUDGED/'" ;;
esac`);
  try {
    const [child, seed] = await spawnChild(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await plantAttributes(child, "f.txt filter=x=y\n");
    const r = await landChild(f, child, seed, ["f.txt"], shim.env);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "f.txt (filter=x=y)");
    assertIncludes(r.stderr, "nothing landed");
    assertEquals(await exists(marker), false, "a smudge raced into the shared config ran");
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("the parent's own committed filter=lfs at a landing path lands the raw bytes", async () => {
  const f = await family({ "f.txt": TEN, ".gitattributes": "*.bin filter=lfs\n" });
  try {
    const [child, seed] = await spawnChild(f, "c1");
    await Deno.writeTextFile(join(child, "x.bin"), "raw content\n");
    const r = await landChild(f, child, seed, ["x.bin"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(await text(f.parent, "x.bin"), "raw content\n");
  } finally {
    await f.cleanup();
  }
});

/**
 * A git on PATH that runs the real one and, after the land's `read-tree -m -u` only,
 * appends a byte to `f.txt` in the directory it ran in: what a smudge raced in would do.
 */
function rewritingShim(): Promise<{ dir: string; env: Record<string, string> }> {
  return gitShim(`case " $* " in
  *" read-tree -m -u "*) "$REAL" "$@"; rc=$?; printf X >> f.txt; exit $rc ;;
esac`);
}

Deno.test("bytes the checkout wrote that are not the merged tree's: exit 3 naming the path", async () => {
  const f = await family();
  const shim = await rewritingShim();
  try {
    const [child, seed] = await spawnChild(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const r = await landChild(f, child, seed, ["f.txt"], shim.env);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "f.txt");
    assertIncludes(r.stderr, "not the tree gate checked");
    assertEquals(r.stdout.includes("landed"), false, r.stdout);
    assertEquals(await text(f.parent, "f.txt"), TEN); // undone (tests/land_readback_undo_test.ts)
    assertEquals(await exists(child), true, "the child was removed");
  } finally {
    await Deno.remove(shim.dir, { recursive: true }).catch(() => {});
    await f.cleanup();
  }
});

Deno.test("the same land without the rewrite lands (control)", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawnChild(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.remove(join(child, "f.txt"));
    await Deno.writeTextFile(join(child, "g.txt"), "g\n");
    await Deno.symlink("g.txt", join(child, "l"));
    const r = await landChild(f, child, seed, ["g.txt", "f.txt", "l"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 3 paths");
    assertEquals(await exists(join(f.parent, "f.txt")), false);
    assertEquals(await Deno.readLink(join(f.parent, "l")), "g.txt");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a planted clean filter cannot hide an unclaimed change from gate --since", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
  const marker = join(repo, ".git", "clean-ran");
  try {
    const snapshot = await contextSpawn(repo);
    await writeFiles(repo, { "b.txt": "b changed\n", "a.txt": "a\nrm -rf ~\n" });
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "a.txt filter=hide\n");
    await git(repo, [
      "config",
      "filter.hide.clean",
      `sh -c 'echo ran >> ${marker}; cat >/dev/null; printf "a\\n"'`,
    ]);
    const g = await gate(repo, gateResult(["b.txt"], [{ kind: "file", ref: "b.txt", ok: true }]), [
      "--since",
      snapshot,
    ]);
    assertEquals(g.report?.changes?.observed_unclaimed, ["a.txt"], g.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true }).catch(() => {});
  }
});
Deno.test("a lying clean filter the spawn already had never decides gate's reading", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
  const marker = join(repo, ".git", "clean-ran");
  try {
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "a.txt filter=hide\n");
    await git(repo, [
      "config",
      "filter.hide.clean",
      `sh -c 'echo ran >> ${marker}; cat >/dev/null; printf "a\\n"'`,
    ]);
    const snapshot = await contextSpawn(repo);
    // The handshake's v1 fingerprint runs the parent's own filters, as the user's git does.
    await Deno.remove(marker).catch(() => {});
    await writeFiles(repo, { "b.txt": "b changed\n", "a.txt": "a\nrm -rf ~\n" });
    const g = await gate(repo, gateResult(["b.txt"], [{ kind: "file", ref: "b.txt", ok: true }]), [
      "--since",
      snapshot,
    ]);
    assertEquals(g.report?.changes?.observed_unclaimed, ["a.txt"], g.stderr);
    assertEquals(await Deno.stat(marker).then(() => true, () => false), false, "the filter ran");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
