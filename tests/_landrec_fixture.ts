/**
 * The land-record tests' family (reviews worktree-3 and -4): a committed parent with a
 * ten-line f.txt, children spawned by `handshake --worktree --count`, and `gate --worktree`
 * run in the parent.
 *
 * @module
 */
import { join } from "node:path";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { bin, makeRepo, type Run, tempDir } from "./_helpers.ts";
import { type Family, removeWorktrees } from "./_worktree_fixture.ts";

/** Ten lines, `line 1` to `line 10`. */
export const TEN = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";

/** A committed parent with f.txt (ten lines) and b.txt, and a directory for its children. */
export async function family(): Promise<Family> {
  const parent = await makeRepo({ files: { "f.txt": TEN, "b.txt": "b\n" } });
  const kids = await tempDir("tether-kids-");
  return {
    parent,
    kids,
    cleanup: async () => {
      try {
        await removeWorktrees(parent);
      } finally {
        await Deno.remove(parent, { recursive: true }).catch(() => {});
        await Deno.remove(kids, { recursive: true }).catch(() => {});
      }
    },
  };
}

/** Spawn `count` children at `kids/c`; their paths and the seed. */
export async function spawn(f: Family, count: number): Promise<[string[], string]> {
  const r = await bin(
    "handshake",
    ["--worktree", join(f.kids, "c"), "--count", String(count), "--json"],
    { cwd: f.parent },
  );
  assertEquals(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  return [doc.worktrees.map((w: { path: string }) => w.path), doc.seed];
}

/** A result claiming `files`, with file evidence at the first. */
export function result(...files: string[]): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "file", ref: files[0], ok: true }],
  });
}

/** `gate --worktree DIR --seed SEED …` in the parent. */
export function gate(
  f: Family,
  dir: string,
  seed: string,
  stdin: string,
  ...more: string[]
): Promise<Run> {
  return bin("gate", ["--worktree", dir, "--seed", seed, ...more], { cwd: f.parent, stdin });
}

/** A file's text. */
export const text = (dir: string, path: string) => Deno.readTextFile(join(dir, path));

/** The id a kept land printed as its land record. */
export function recordId(stdout: string): string {
  const id = /^land record: ([0-9a-f]+) /m.exec(stdout)?.[1];
  assertOk(id !== undefined, stdout);
  return id!;
}
