/**
 * A commit made between gate's reading of HEAD and its `git status` (a git shim commits
 * right after gate's first HEAD read, as a sibling or a job the child left running could)
 * would pair the old HEAD's tree with a status taken after the commit, and an unclaimed
 * deletion it committed would be seen nowhere. gate reads HEAD again after status: a move is
 * exit 3, never a verdict. Through the real binaries.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { bin, git, gitShim, makeRepo } from "./_helpers.ts";

const RESULT = JSON.stringify({
  ok: true,
  summary: "edited app.ts",
  files_changed: ["app.ts"],
  errors: [],
  evidence: [{ kind: "file", ref: "app.ts", ok: true }],
});

Deno.test("a commit between gate's HEAD read and its status is never judged as the tree (exit 3); judged again, the committed deletion is seen", async () => {
  const repo = await makeRepo({ files: { "app.ts": "hello\n", "lib.ts": "lib\n" } });
  const shim = await gitShim(`case " $* " in
*" rev-parse --verify -q HEAD"*) "$REAL" "$@"; rc=$?
  if [ ! -e "$DIR/done" ]; then : > "$DIR/done"
    "$REAL" -c user.name=s -c user.email=s@s.invalid commit -qam sibling >/dev/null; fi
  exit $rc ;;
esac`);
  try {
    const wrapped = await bin("handshake", ["wrap", "--context"], { cwd: repo, stdin: "task\n" });
    const snap = /^snapshot: ([0-9a-f]+)$/m.exec(wrapped.stdout)?.[1];
    assertEquals(typeof snap, "string", wrapped.stdout + wrapped.stderr);
    await Deno.writeTextFile(join(repo, "app.ts"), "edited\n");
    await Deno.remove(join(repo, "lib.ts"));
    const raced = await bin("gate", ["--since", snap!, "--json"], {
      cwd: repo,
      stdin: RESULT,
      env: shim.env,
    });
    assertEquals(
      await git(repo, ["log", "-1", "--format=%s"]),
      "sibling",
      "the shim did not commit",
    );
    assertEquals(raced.code, 3, raced.stdout + raced.stderr);
    assertIncludes(raced.stderr, "HEAD moved while gate read the tree");
    // Judged again, still: the committed deletion is reported as an unclaimed change.
    const again = await bin("gate", ["--since", snap!, "--json"], { cwd: repo, stdin: RESULT });
    assertEquals(again.code, 0, again.stdout + again.stderr);
    assertEquals(JSON.parse(again.stdout).changes.observed_unclaimed, ["lib.ts"]);
  } finally {
    await Deno.remove(repo, { recursive: true });
    await Deno.remove(shim.dir, { recursive: true });
  }
});
