/**
 * What the shared `.git` holds never decides the land or a spawn, through the real binaries
 * (`--allow-run=git` only). The child is untrusted and writes the shared `.git`: its config,
 * `info/attributes`, `info/sparse-checkout` and `hooks/`. Each test builds the attack in a
 * throwaway repository.
 *
 * - a merge driver or merge attribute never decides the land: refused, exit 3, nothing
 *   landed, and the driver never runs.
 * - sparse checkout from the shared config deletes nothing.
 * - a filter from the shared `.git` never runs in the land or a spawn, and the raw bytes
 *   gate checked land; an attribute that rewrites bytes on checkout (`eol=crlf`) is refused,
 *   from the shared `.git` or from the merged tree's own `.gitattributes`.
 * - no hook runs in the land's clean-up or in a spawn.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import {
  committedFamily,
  commonDir,
  exists,
  type Family,
  landChild as land,
  plantAttributes,
  plantConfig,
  spawnChild as spawn,
  TEN,
  text,
} from "./_worktree_fixture.ts";

/** A committed parent with f.txt (ten lines), a.txt and b.txt, and a directory for children. */
function family(): Promise<Family> {
  return committedFamily({ "f.txt": TEN, "a.txt": "a\n", "b.txt": "b\n" });
}

Deno.test("a merge driver from the shared .git never runs; the land is refused, exit 3", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(f.parent, "f.txt"), "parent line\n" + TEN);
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const marker = join(f.kids, "driver-ran");
    await plantAttributes(child, "f.txt merge=mine\n");
    await plantConfig(child, "merge.mine.driver", `sh -c 'echo ran > ${marker}; cp %B %A'`);
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "f.txt (merge=mine)");
    assertIncludes(r.stderr, "nothing landed");
    assertEquals(await exists(marker), false, "the child's driver ran inside gate");
    assertEquals(await text(f.parent, "f.txt"), "parent line\n" + TEN);
  } finally {
    await f.cleanup();
  }
});

Deno.test("merge=union from info/attributes alone never turns a conflict into a land", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(f.parent, "f.txt"), TEN.replace("line 5\n", "parent 5\n"));
    await Deno.writeTextFile(join(child, "f.txt"), TEN.replace("line 5\n", "child 5\n"));
    await plantAttributes(child, "f.txt merge=union\n");
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "f.txt (merge=union)");
    assertEquals(await text(f.parent, "f.txt"), TEN.replace("line 5\n", "parent 5\n"));
  } finally {
    await f.cleanup();
  }
});

Deno.test("a merge.default driver from the shared config never runs; refused, exit 3", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(f.parent, "f.txt"), "parent line\n" + TEN);
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const marker = join(f.kids, "driver-ran");
    await plantConfig(child, "merge.default", "mine");
    await plantConfig(child, "merge.mine.driver", `sh -c 'echo ran > ${marker}; cp %B %A'`);
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "merge.default=mine (config)");
    assertEquals(await exists(marker), false, "the child's default driver ran inside gate");
    assertEquals(await text(f.parent, "f.txt"), "parent line\n" + TEN);
  } finally {
    await f.cleanup();
  }
});

Deno.test("sparse checkout in the shared config deletes none of the parent's files", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(f.parent, "b.txt"), "b\nunstaged\n");
    await Deno.writeTextFile(join(f.parent, "u.txt"), "untracked\n");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await plantConfig(child, "core.sparseCheckout", "true");
    await Deno.writeTextFile(join(await commonDir(child), "info", "sparse-checkout"), "/f.txt\n");
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: f.txt");
    assertEquals(await text(f.parent, "a.txt"), "a\n");
    assertEquals(await text(f.parent, "b.txt"), "b\nunstaged\n");
    assertEquals(await text(f.parent, "u.txt"), "untracked\n");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});

// A filter at a landing path is refused (tests/land_filter_race_test.ts);
// here the filter covers the paths that do not land, which the refresh still reads.
Deno.test("a filter from the shared .git never runs in the land; the raw bytes land", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    const marker = join(f.kids, "filter-ran");
    await plantAttributes(child, "* filter=sm\nf.txt -filter\n");
    await plantConfig(child, "filter.sm.clean", `sh -c 'echo clean >> ${marker}; cat'`);
    await plantConfig(
      child,
      "filter.sm.smudge",
      `sh -c 'echo smudge >> ${marker}; sed s/child/SMUDGED/'`,
    );
    await plantConfig(child, "filter.sm.required", "true");
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: f.txt");
    assertEquals(await exists(marker), false, "the child's filter ran inside gate");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a smudge filter from the shared .git never runs in a spawn's checkout", async () => {
  const f = await family();
  try {
    const [child] = await spawn(f, "c1");
    const marker = join(f.kids, "filter-ran");
    await plantAttributes(child, "* filter=sm\n");
    await plantConfig(child, "filter.sm.smudge", `sh -c 'echo smudge >> ${marker}; cat'`);
    await plantConfig(child, "filter.sm.clean", `sh -c 'echo clean >> ${marker}; cat'`);
    const [second] = await spawn(f, "c2");
    // The checkout runs no smudge. (The clean filter still runs in the spawn's `git status`
    // parity reads: docs/worktree.md, Known limits.)
    const ran = await exists(marker) ? await Deno.readTextFile(marker) : "";
    assertEquals(ran.includes("smudge"), false, `the child's smudge filter ran inside handshake`);
    assertEquals(await text(second, "f.txt"), TEN);
  } finally {
    await f.cleanup();
  }
});

/** A land whose path the shared info/attributes gives `attribute` is refused, nothing written. */
async function refusedByInfoAttributes(attribute: string, content: string): Promise<void> {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + content);
    await plantAttributes(child, `f.txt ${attribute}\n`);
    const r = await land(f, child, seed, ["f.txt"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `f.txt (${attribute})`);
    assertEquals(await text(f.parent, "f.txt"), TEN);
  } finally {
    await f.cleanup();
  }
}

Deno.test("eol=crlf in the shared info/attributes is refused, exit 3", () =>
  refusedByInfoAttributes("eol=crlf", "child line\n"));

Deno.test("ident in the shared info/attributes is refused, exit 3", () =>
  refusedByInfoAttributes("ident", "$Id$\n"));

Deno.test("eol=crlf in the child's own .gitattributes is refused before anything is written", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\n");
    await Deno.writeTextFile(join(child, ".gitattributes"), "f.txt eol=crlf\n");
    const r = await land(f, child, seed, ["f.txt", ".gitattributes"]);
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, "f.txt (eol=crlf)");
    assertIncludes(r.stderr, "nothing landed");
    assertEquals(await text(f.parent, "f.txt"), TEN);
    assertEquals(await exists(join(f.parent, ".gitattributes")), false);
  } finally {
    await f.cleanup();
  }
});

// A filter at a landing path is refused, the parent's own included
// (tests/land_filter_race_test.ts); one at a path that does not land is harmless.
Deno.test("the parent's own text=auto and filter attributes land the raw bytes", async () => {
  const f = await committedFamily({
    "f.txt": TEN,
    ".gitattributes": "* text=auto\n*.bin filter=lfs\n",
  });
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "f.txt"), TEN + "child line\r\n");
    await Deno.writeTextFile(join(child, "x.txt"), "raw content\r\n");
    const r = await land(f, child, seed, ["f.txt", "x.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 2 paths: f.txt, x.txt");
    assertEquals(await text(f.parent, "f.txt"), TEN + "child line\r\n");
    assertEquals(await text(f.parent, "x.txt"), "raw content\r\n");
  } finally {
    await f.cleanup();
  }
});

Deno.test("no hook from the shared .git runs in the land's clean-up or the next spawn", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f, "c1");
    await Deno.writeTextFile(join(child, "m.txt"), "m\n");
    const marker = join(f.kids, "hook-ran");
    const hook = join(await commonDir(child), "hooks", "reference-transaction");
    await Deno.mkdir(join(hook, ".."), { recursive: true });
    await Deno.writeTextFile(hook, `#!/bin/sh\necho "hook: $1" >> ${marker}\n`);
    await Deno.chmod(hook, 0o755);
    const r = await land(f, child, seed, ["m.txt"]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertIncludes(r.stdout, "landed: 1 path: m.txt");
    assertOk(!r.stdout.includes("not removed"), r.stdout);
    assertEquals(await exists(marker), false, "the child's hook ran inside gate");
    await spawn(f, "c2");
    assertEquals(await exists(marker), false, "the child's hook ran inside handshake");
  } finally {
    await f.cleanup();
  }
});
