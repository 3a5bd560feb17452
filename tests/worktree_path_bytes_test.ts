/**
 * A path name that is not UTF-8 is handled by its exact bytes, through the real binaries
 * (`--allow-run=git` only). Decoded lossily, or passed through the command line (where Deno
 * turns its lone surrogate into U+FFFD), such a name would have git asked about, or tether
 * compare, a name that does not exist; every git path list is decoded exactly and such a
 * path never goes through argv.
 *
 * - an ignored file below a non-UTF-8 directory the child replaces is refused;
 * - `gate --since` observes a non-UTF-8 file's change, and confirms its exact claim;
 * - the raw capture holds every file (a tracked ignored non-UTF-8 one, a name with a newline
 *   and a non-UTF-8 byte), and a file it cannot hash fails it, never dropped;
 * - a claim git would refuse (`../x`, `.GIT/config`, `sub/.git`, a NUL) is a reason of a
 *   reject, exit 1, never "Cannot evaluate".
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes, assertOk } from "../src/_assert.ts";
import { bin, git, makeRepo, ROOT, type Run, run, writeFiles } from "./_helpers.ts";
import { committedFamily, exists, type Family } from "./_worktree_fixture.ts";

/** Run a shell script in `cwd` (names with bytes that are not UTF-8 are made with printf). */
async function sh(cwd: string, script: string): Promise<string> {
  const r = await run("sh", ["-c", script], { cwd });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout;
}

/** A committed parent, and a directory for its children. */
function family(files: Record<string, string> = {}): Promise<Family> {
  return committedFamily({ "a.txt": "a\n", ".gitignore": "*.env\n", ...files });
}

async function spawn(f: Family): Promise<[string, string]> {
  const r = await bin("handshake", ["--worktree", join(f.kids, "c"), "--json"], {
    cwd: f.parent,
  });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  const doc = JSON.parse(r.stdout);
  return [doc.worktrees[0].path, doc.seed];
}

/** A result claiming `files`, with file evidence for the first. */
function result(files: string[], evidence = files[0]): string {
  return JSON.stringify({
    ok: true,
    summary: "done",
    files_changed: files,
    errors: [],
    evidence: [{ kind: "file", ref: evidence, ok: true }],
  });
}

function gateWorktree(f: Family, dir: string, seed: string, stdin: string, ...more: string[]) {
  return bin("gate", ["--worktree", dir, "--seed", seed, ...more], { cwd: f.parent, stdin });
}

Deno.test("a child that replaces a non-UTF-8 directory by a file is refused while the parent holds an ignored file in it", async () => {
  const f = await family();
  try {
    await sh(f.parent, `d=$(printf 'mix\\377'); mkdir "$d"; echo tracked > "$d/t.txt"`);
    await git(f.parent, ["add", "-A"]);
    await git(f.parent, ["commit", "-q", "-m", "mix"]);
    await sh(f.parent, `printf 'SECRET=parent-only\\n' > "$(printf 'mix\\377')/s.env"`);
    const [child, seed] = await spawn(f);
    await sh(child, `d=$(printf 'mix\\377'); rm -r "$d"; echo "now a file" > "$d"`);
    const r = await gateWorktree(
      f,
      child,
      seed,
      result(["mix\udcff", "mix\udcff/t.txt"]),
      "--land",
      "--json",
    );
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const land = JSON.parse(r.stdout).land;
    assertEquals([land.status, land.reason, land.paths], ["refused", "ignored", [
      "mix\udcff/s.env",
    ]]);
    assertEquals(
      await sh(f.parent, `cat "$(printf 'mix\\377')/s.env"`),
      "SECRET=parent-only\n",
    );
    assertOk(await exists(child), "the worktree is kept");
  } finally {
    await f.cleanup();
  }
});

/** A clean repository with a.txt and the tracked x\377, and the snapshot id of it now. */
async function sharedRepo(): Promise<[string, string]> {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  await sh(repo, `printf 'v1\\n' > "$(printf 'x\\377')"`);
  await git(repo, ["add", "-A"]);
  await git(repo, ["commit", "-q", "-m", "x"]);
  const r = await bin("handshake", ["--context", "--json"], { cwd: repo, stdin: "" });
  assertEquals(r.code, 0, r.stdout + r.stderr);
  return [repo, JSON.parse(r.stdout).snapshot_id];
}

function since(repo: string, snap: string, stdin: string): Promise<Run> {
  return bin("gate", ["--since", snap, "--json"], { cwd: repo, stdin });
}

Deno.test("gate --since observes an undisclosed edit of a tracked non-UTF-8 file", async () => {
  const [repo, snap] = await sharedRepo();
  try {
    await sh(repo, `printf 'changed by the child\\n' > "$(printf 'x\\377')"; echo b >> a.txt`);
    const r = await since(repo, snap, result(["a.txt"]));
    const report = JSON.parse(r.stdout);
    assertEquals(report.changes.observed_unclaimed, ["x\udcff"], r.stdout + r.stderr);
    assertEquals(report.changes.confirmed, ["a.txt"]);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("gate --since confirms a new non-UTF-8 file claimed by its exact name, and checks it as file evidence", async () => {
  const [repo, snap] = await sharedRepo();
  try {
    await sh(repo, `printf 'new\\n' > "$(printf 'n\\377')"; echo b >> a.txt`);
    const r = await since(repo, snap, result(["a.txt", "n\udcff"], "n\udcff"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assertEquals(report.verdict, "accept");
    assertEquals(report.changes.confirmed, ["a.txt", "n\udcff"]);
    assertEquals(report.evidence, [{ kind: "file", ref: "n\udcff", status: "verified" }]);
    // Evidence with the blob id of other content is refuted, not taken for another name.
    const wrong = JSON.stringify({
      ...JSON.parse(result(["a.txt", "n\udcff"])),
      evidence: [{ kind: "file", ref: "n\udcff", ok: true, oid: "0".repeat(40) }],
    });
    const w = await since(repo, snap, wrong);
    assertEquals(w.code, 1, w.stdout + w.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a parent with a tracked, ignored, non-UTF-8 file spawns, and a child's undisclosed edit of it is observed", async () => {
  const f = await family();
  try {
    await sh(f.parent, `printf 'v1\\n' > "$(printf 'k\\377.env')"`);
    await git(f.parent, ["add", "-f", "-A"]);
    await git(f.parent, ["commit", "-q", "-m", "k"]);
    const [child, seed] = await spawn(f);
    await sh(child, `printf 'child\\n' > "$(printf 'k\\377.env')"; echo x > n.txt`);
    const r = await gateWorktree(f, child, seed, result(["n.txt"]), "--land", "--json");
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).changes.observed_unclaimed, ["k\udcff.env"]);
    assertOk(await exists(child), "the worktree is kept");
    assertOk(!(await exists(join(f.parent, "n.txt"))), "nothing landed");
  } finally {
    await f.cleanup();
  }
});

Deno.test("a child's new tracked ignored non-UTF-8 file and its untracked notes\\n\\377.txt are in the capture: reject, worktree kept", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f);
    await sh(child, `printf 'config\\n' > "$(printf 'k\\377.env')"`);
    await sh(child, `git add -f -- "$(printf 'k\\377.env')"`);
    await sh(child, `printf 'notes\\n' > "$(printf 'notes\\n\\377.txt')"; echo x > n.txt`);
    const r = await gateWorktree(f, child, seed, result(["n.txt"]), "--land", "--json");
    assertEquals(r.code, 1, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).changes.observed_unclaimed, [
      "k\udcff.env",
      "notes\n\udcff.txt",
    ]);
    assertOk(await exists(child), "the worktree is kept");
    // Claimed, both land with their exact bytes.
    const all = await gateWorktree(
      f,
      child,
      seed,
      result(["n.txt", "k\udcff.env", "notes\n\udcff.txt"]),
      "--land",
    );
    assertEquals(all.code, 0, all.stdout + all.stderr);
    assertEquals(await sh(f.parent, `cat "$(printf 'notes\\n\\377.txt')"`), "notes\n");
    assertEquals(await sh(f.parent, `cat "$(printf 'k\\377.env')"`), "config\n");
  } finally {
    await f.cleanup();
  }
});

/**
 * Run a binary as shipped, but unable to read a file its mode forbids even as root: the
 * capability that overrides file modes is dropped (`setpriv`) when the test runs as root.
 */
async function binModeBound(
  name: "gate" | "handshake",
  args: string[],
  cwd: string,
  stdin?: string,
) {
  const deno = [
    Deno.execPath(),
    "run",
    "--quiet",
    "--no-prompt",
    "--allow-run=git",
    join(ROOT, `${name}.ts`),
    ...args,
  ];
  const drop = ["--bounding-set", "-dac_override,-dac_read_search", "--"];
  // `id -u`, not Deno.uid(): the test task grants no --allow-sys.
  const root = (await run("id", ["-u"], { cwd })).stdout.trim() === "0";
  const [cmd, ...rest] = root ? ["setpriv", ...drop, ...deno] : deno;
  return run(cmd!, rest, {
    cwd,
    env: { NO_COLOR: "1" },
    ...(stdin === undefined ? {} : { stdin }),
  });
}

Deno.test("a regular file the capture cannot hash fails it, exit 3 with the path named, never left out of the tree", async () => {
  const f = await family();
  try {
    const [child, seed] = await spawn(f);
    await writeFiles(child, { "locked.txt": "the child wrote this\n", "n.txt": "x\n" });
    await Deno.chmod(join(child, "locked.txt"), 0o000);
    const r = await binModeBound(
      "gate",
      ["--worktree", child, "--seed", seed, "--land"],
      f.parent,
      result(["n.txt"]),
    );
    assertEquals(r.code, 3, r.stdout + r.stderr);
    assertIncludes(r.stderr, `cannot read "locked.txt": git could not hash it`);
    assertOk(await exists(child), "the worktree is kept");
    assertOk(!(await exists(join(f.parent, "n.txt"))), "nothing landed");
    // A parent holding such a file cannot spawn, and says which file.
    await writeFiles(f.parent, { "locked.txt": "parent\n" });
    await Deno.chmod(join(f.parent, "locked.txt"), 0o000);
    const s = await binModeBound("handshake", ["--worktree", join(f.kids, "d")], f.parent, "task");
    assertEquals(s.code, 3, s.stdout + s.stderr);
    assertIncludes(s.stderr, `cannot read "locked.txt": git could not hash it`);
    await Deno.chmod(join(child, "locked.txt"), 0o644);
    await Deno.chmod(join(f.parent, "locked.txt"), 0o644);
  } finally {
    await f.cleanup();
  }
});

Deno.test("gate --since refuses each claim git would refuse (outside the tree, inside .git in any case, a NUL, not one name) as a reason, exit 1", async () => {
  const [repo, snap] = await sharedRepo();
  try {
    await sh(repo, "echo b >> a.txt");
    const bad: [string, string][] = [
      ["../x", 'Claimed path refused: path climbs out with "..": "../x"'],
      [".GIT/config", 'Claimed path refused: ".GIT/config" is inside a .git directory'],
      ["sub/.git", 'Claimed path refused: "sub/.git" is inside a .git directory'],
      ["sub/.Git. /x", 'Claimed path refused: "sub/.Git. /x" is inside a .git directory'],
      ["\u0000", 'Claimed path refused: path contains a NUL byte: "\\u0000"'],
      ["/etc/passwd", 'Claimed path refused: path is absolute: "/etc/passwd"'],
      ["x\ud800", 'Claimed path refused: "x\\ud800" is not a name git prints'],
    ];
    for (const [claim, reason] of bad) {
      const r = await since(repo, snap, result(["a.txt", claim], "a.txt"));
      assertEquals(r.code, 1, `${JSON.stringify(claim)}: ${r.stdout}${r.stderr}`);
      const report = JSON.parse(r.stdout);
      assertEquals(report.reasons.length, 1, r.stdout);
      assertIncludes(report.reasons[0], reason);
      assertEquals(report.changes.confirmed, ["a.txt"]);
    }
    // Every bad claim is named, each in a reason of its own.
    const all = await since(repo, snap, result(["a.txt", ...bad.map(([c]) => c)], "a.txt"));
    assertEquals(all.code, 1, all.stdout + all.stderr);
    assertEquals(JSON.parse(all.stdout).reasons.length, bad.length);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a tracked non-UTF-8 file replaced by a FIFO is typed without being read: the change is observed, and as file evidence it is refuted", async () => {
  const [repo, snap] = await sharedRepo();
  try {
    await sh(repo, `x=$(printf 'x\\377'); rm "$x"; mkfifo "$x"; echo b >> a.txt`);
    const r = await since(repo, snap, result(["a.txt", "x\udcff"], "a.txt"));
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertEquals(JSON.parse(r.stdout).changes.confirmed, ["a.txt", "x\udcff"]);
    const cited = JSON.stringify({
      ...JSON.parse(result(["a.txt", "x\udcff"])),
      evidence: [
        { kind: "file", ref: "a.txt", ok: true },
        { kind: "file", ref: "x\udcff", ok: true },
      ],
    });
    const c = await since(repo, snap, cited);
    assertEquals(c.code, 1, c.stdout + c.stderr);
    assertEquals(JSON.parse(c.stdout).evidence[1].status, "refuted");
    assertIncludes(c.stdout, "is not a regular file");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("file evidence inside a submodule whose name is not UTF-8 is unverified (another repository), not refuted", async () => {
  const [repo] = await sharedRepo();
  try {
    await sh(
      repo,
      `s=$(printf 'sub\\377'); mkdir "$s"; git update-index --add --cacheinfo "160000,$(git rev-parse HEAD),$s"`,
    );
    await git(repo, ["commit", "-q", "-m", "sub"]);
    const r0 = await bin("handshake", ["--context", "--json"], { cwd: repo, stdin: "" });
    const snap = JSON.parse(r0.stdout).snapshot_id;
    await sh(repo, "echo b >> a.txt");
    const cited = JSON.stringify({
      ...JSON.parse(result(["a.txt"])),
      evidence: [
        { kind: "file", ref: "a.txt", ok: true },
        { kind: "file", ref: "sub\udcff/x", ok: true },
      ],
    });
    const r = await since(repo, snap, cited);
    const report = JSON.parse(r.stdout);
    assertEquals(report.evidence[1], { kind: "file", ref: "sub\udcff/x", status: "unverified" });
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
