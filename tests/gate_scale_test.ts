/**
 * Issue 10: `gate --since` reads what the snapshot's paths and the claims hold, and compares
 * the trees, while the live status runs; the paths only the live status names (changed
 * since the spawn by someone, claimed by nobody) are read and looked up in the trees once
 * it has listed them. These tests show that those late paths are still observed, and that
 * the snapshot's entries are checked exactly as the schema checks them.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { parseSnapshot, WorkingContextSnapshotSchema } from "../src/gate/snapshot_schema.ts";
import { git, makeRepo, writeFiles } from "./_helpers.ts";
import { gate, result, spawn } from "./_gate_fixture.ts";

Deno.test("gate --since: tracked files clean at spawn that a sibling deletes or edits are observed, read after status", async () => {
  const repo = await makeRepo({
    files: { "mine.txt": "m\n", "gone.txt": "g\n", "edited.txt": "e\n", "d/deep.txt": "d\n" },
  });
  try {
    await writeFiles(repo, { "parent.txt": "dirty at spawn\n" });
    const since = await spawn(repo);
    // The child's own change, claimed; a sibling's, not: a deletion, an edit, one below a
    // directory; and a new file the child commits (the trees differ).
    await writeFiles(repo, { "mine.txt": "child\n", "edited.txt": "sibling\n" });
    await writeFiles(repo, { "d/deep.txt": "sibling\n" });
    await Deno.remove(join(repo, "gone.txt"));
    await writeFiles(repo, { "new.txt": "child\n" });
    await git(repo, ["add", "new.txt"]);
    await git(repo, ["commit", "-q", "-m", "child", "--", "new.txt"]);
    const r = await gate(
      repo,
      result(["mine.txt", "new.txt"], [{ kind: "file", ref: "new.txt", ok: true }]),
      ["--since", since],
    );
    assertEquals(r.code, 0, JSON.stringify(r.report) + r.stderr);
    assertEquals(r.report.changes.confirmed, ["mine.txt", "new.txt"]);
    // The parent's own dirty file, untouched since, is not observed.
    assertEquals(r.report.changes.observed_unclaimed, ["d/deep.txt", "edited.txt", "gone.txt"]);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

/** A snapshot as `handshake --context` writes it, with one entry. */
function snapshot(entry: unknown, git: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tether_snapshot: 1,
    captured_at: "2026-01-01T00:00:00.000Z",
    audience: "private",
    project_dir: "/r",
    recent_files: [],
    git: {
      worktree: "/r",
      branch: "main",
      head: "a".repeat(40),
      object_format: "sha1",
      linked_worktree: false,
      remotes: [],
      staged: 0,
      modified: 1,
      untracked: 0,
      entries: [{ xy: " M", path: "a.txt", oid: null, state: "s", content: "absent" }, entry],
      ...git,
    },
  };
}

Deno.test("gate: a snapshot's entries are taken exactly when the schema takes them", () => {
  const ok = { xy: " M", path: "b.txt", oid: "b".repeat(40), state: "s", content: "absent" };
  const cases: unknown[] = [
    ok,
    { xy: "??", path: "c", oid: null },
    { ...ok, state: undefined },
    { ...ok, xy: "M" },
    { ...ok, xy: " MM" },
    { ...ok, path: "" },
    { ...ok, path: 1 },
    { ...ok, oid: 1 },
    { xy: " M", path: "b.txt" },
    { ...ok, state: 1 },
    { ...ok, content: null },
    { ...ok, extra: "x" },
    JSON.parse('{"xy":" M","path":"b","oid":null,"__proto__":1}'),
    [" M", "b.txt", null],
    "b.txt",
    null,
    1,
  ];
  for (const entry of cases) {
    const value = snapshot(entry);
    const text = JSON.stringify(value);
    const expected = WorkingContextSnapshotSchema.safeParse(JSON.parse(text)).success;
    assertEquals(parseSnapshot(text) !== undefined, expected, text);
  }
  // And what the schema refuses around the entries is still refused.
  for (const git of [{ entries: "x" }, { staged: -1 }, { head: "x" }, { extra: 1 }]) {
    const text = JSON.stringify(snapshot(ok, git));
    assertEquals(WorkingContextSnapshotSchema.safeParse(JSON.parse(text)).success, false, text);
    assertEquals(parseSnapshot(text), undefined, text);
  }
  assertEquals(parseSnapshot(JSON.stringify(snapshot(ok)))?.git?.entries.length, 2);
});
