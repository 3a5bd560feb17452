/**
 * Issue 10: `verify` starts a bounded number of git processes, whatever the tree, in an
 * order that keeps its guarantee. Status starts only once the first reflog read has
 * answered, no git process starts after status has ended (HEAD, the branch and the reflogs
 * are read again by the reader already up), and what those reads find still takes the
 * capture again: a move of HEAD or of its branch that no reflog records, made while status
 * runs, is never paired with that status. Order and moves come from a `git` shim first on
 * PATH that logs each start, each end and the reader's first answer, and moves the tree at
 * a chosen call.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertOk } from "../src/_assert.ts";
import { bin, git, gitShim, makeRepo, writeFiles } from "./_helpers.ts";

/** A shim that logs `start <pid> <args>`, runs `before`, the real git, and logs `end <pid>`. */
function logging(before = ""): Promise<{ dir: string; env: Record<string, string> }> {
  return gitShim(
    `echo "start $$ $*" >> "$DIR/log"\n${before}\n"$REAL" "$@"; rc=$?\necho "end $$" >> "$DIR/log"\nexit $rc`,
  );
}

interface Event {
  kind: "start" | "end" | "answer";
  pid: string;
  what: string;
}

async function events(dir: string): Promise<Event[]> {
  const lines = (await Deno.readTextFile(join(dir, "log"))).split("\n").filter(Boolean);
  const names = new Map<string, string>();
  return lines.map((line) => {
    const [kind, pid, ...args] = line.split(" ");
    if (kind === "start") {
      const text = args.join(" ");
      names.set(
        pid!,
        / status --porcelain$/.test(text)
          ? "status"
          : / --stdin-paths$/.test(text)
          ? "reader"
          : text.replace(/.* core\.commitGraph=false /, ""),
      );
    }
    return { kind: kind as Event["kind"], pid: pid!, what: names.get(pid!) ?? "?" };
  });
}

async function verifyRun(repo: string, env: Record<string, string>) {
  const head = await git(repo, ["rev-parse", "HEAD"]);
  const args = ["--json", "--head", head, "--branch", "main", "--cwd", repo, "--fingerprint"];
  return await bin("verify", [...args, "e3b0c44298fc"], { cwd: repo, env });
}

async function order(files: number): Promise<Event[]> {
  const tracked: Record<string, string> = {};
  for (let i = 0; i < files; i++) tracked[`d${i % 7}/f${i}.txt`] = `${i}\n`;
  const repo = await makeRepo({ files: { "README.md": "r\n", ...tracked } });
  // The reader's first answer (the reflogs before status) comes late: a status started
  // before it would start first. And status takes its time (long enough for a loaded
  // machine): what starts while it runs logs its start before status ends.
  const s = await gitShim(
    `echo "start $$ $*" >> "$DIR/log"\ncase " $* " in\n` +
      `*" --stdin-paths "*) "$REAL" "$@" | { IFS= read -r line; /bin/sleep 0.3; ` +
      `echo "answer $$" >> "$DIR/log"; printf '%s\\n' "$line"; cat; }; rc=0 ;;\n` +
      `*" status "*) /bin/sleep 1.5; "$REAL" "$@"; rc=$? ;;\n` +
      `*) "$REAL" "$@"; rc=$? ;;\nesac\necho "end $$" >> "$DIR/log"\nexit $rc`,
  );
  try {
    const r = await verifyRun(repo, s.env);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    return await events(s.dir);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(s.dir, { recursive: true });
  }
}

Deno.test("verify starts status only once the first reflog read has answered, and no git process after status has ended", async () => {
  const small = await order(3);
  const large = await order(300);
  const starts = (e: Event[]) => e.filter((x) => x.kind === "start").map((x) => x.what).sort();
  assertEquals(starts(large), starts(small));
  for (const log of [small, large]) {
    const at = (kind: Event["kind"], what: string) =>
      log.findIndex((e) => e.kind === kind && e.what === what);
    assertOk(at("answer", "reader") >= 0 && at("start", "status") >= 0, JSON.stringify(log));
    assertOk(at("answer", "reader") < at("start", "status"), JSON.stringify(log));
    // Nothing starts once status has ended: the reads after it go to the reader already up.
    const after = log.slice(at("end", "status")).filter((e) => e.kind === "start");
    assertEquals(after, [], JSON.stringify(log));
    assertOk(at("start", "reader") < at("start", "status"), JSON.stringify(log));
    assertOk(starts(log).length <= 5, JSON.stringify(starts(log)));
  }
});

Deno.test("verify: HEAD put on another branch while status runs, with no reflog entry (the HEAD file rewritten), is never paired with that status", async () => {
  const repo = await makeRepo();
  await git(repo, ["branch", "side"]);
  // Rewritten as git writes it (a new file renamed over the old): a truncated HEAD would
  // make any git started meanwhile say "not a repository", which no real move does.
  const s = await logging(
    `case " $* " in *" status "*) if [ ! -e "$DIR/moved" ]; then : > "$DIR/moved"\n` +
      `printf 'ref: refs/heads/side\\n' > '${repo}/.git/HEAD.new'; mv '${repo}/.git/HEAD.new' '${repo}/.git/HEAD'; fi ;; esac`,
  );
  try {
    const r = await verifyRun(repo, s.env);
    assertOk(await Deno.stat(join(s.dir, "moved")), "the shim moved HEAD");
    assertEquals(await git(repo, ["symbolic-ref", "HEAD"]), "refs/heads/side");
    // Taken again at a quiet moment: HEAD on side, the block's main diverges.
    assertEquals(r.code, 1, r.stdout + r.stderr);
    const verdict = JSON.parse(r.stdout);
    assertEquals(verdict.diverged, ["parent_branch"]);
    assertEquals(verdict.observed.parent_branch, "side");
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(s.dir, { recursive: true });
  }
});

Deno.test("verify: the branch moved while status runs, with no reflog entry (the ref file rewritten), is never paired with that status", async () => {
  const repo = await makeRepo({ files: { "a.txt": "a\n" } });
  const c1 = await git(repo, ["rev-parse", "HEAD"]);
  await writeFiles(repo, { "a.txt": "b\n" });
  await git(repo, ["commit", "-qam", "c2"]);
  const c2 = await git(repo, ["rev-parse", "HEAD"]);
  const s = await logging(
    `case " $* " in *" status "*) if [ ! -e "$DIR/moved" ]; then : > "$DIR/moved"\n` +
      `printf '%s\\n' ${c1} > '${repo}/.git/main.new'; mv '${repo}/.git/main.new' '${repo}/.git/refs/heads/main'; fi ;; esac`,
  );
  try {
    const r = await bin("verify", [
      "--json",
      "--head",
      c2,
      "--branch",
      "main",
      "--cwd",
      repo,
      "--fingerprint",
      "e3b0c44298fc",
    ], { cwd: repo, env: s.env });
    assertOk(await Deno.stat(join(s.dir, "moved")), "the shim moved the branch");
    assertEquals(await git(repo, ["rev-parse", "HEAD"]), c1);
    assertEquals(r.code, 1, r.stdout + r.stderr);
    // Taken again: HEAD is C1 (with C2's content staged), never C2 with C1's status.
    assertEquals(JSON.parse(r.stdout).observed.parent_head, c1);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(s.dir, { recursive: true });
  }
});
