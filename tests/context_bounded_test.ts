/**
 * Issue 10: `handshake --context` and `gate --since` start a bounded number of git
 * processes, whatever the number of untracked, modified and deleted files, and keep every
 * guarantee (special files never read, symlinks never followed, NUL-safe paths).
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { captureWorkingContext } from "../src/context/capture.ts";
import { evaluate } from "../src/gate/evaluate.ts";
import { gitSpawnCount } from "../src/git.ts";
import { makeRepo, writeFiles } from "./_helpers.ts";

/** Git processes of one spawn capture and one gate --since, with `n` files of each kind. */
async function processes(n: number): Promise<{ capture: number; gate: number }> {
  const tracked: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    tracked[`mod/m${i}.txt`] = `${i}\n`;
    tracked[`del/d${i}.txt`] = `${i}\n`;
  }
  const repo = await makeRepo({ files: { "app.ts": "a\n", ...tracked } });
  try {
    const dirty: Record<string, string> = {};
    for (let i = 0; i < n; i++) {
      dirty[`new/u${i}.txt`] = `${i}\n`;
      dirty[`mod/m${i}.txt`] = `changed ${i}\n`;
    }
    await writeFiles(repo, dirty);
    await Deno.remove(join(repo, "del"), { recursive: true });
    await Deno.symlink("/dev/zero", join(repo, "zero"));
    const start = gitSpawnCount();
    const { snapshotId } = await captureWorkingContext({
      recent: [],
      audience: "private",
      cwd: repo,
    });
    const captured = gitSpawnCount();
    await writeFiles(repo, { "app.ts": "child\n", "new/u0.txt": "child\n" });
    const report = await evaluate(
      JSON.stringify({
        ok: true,
        summary: "s",
        files_changed: ["app.ts"],
        errors: [],
        evidence: [{ kind: "file", ref: "app.ts", ok: true }],
      }),
      { since: snapshotId!, cwd: repo },
    );
    assertEquals(report.verdict, "accept", JSON.stringify(report.reasons));
    assertEquals(report.changes?.observed_unclaimed, ["new/u0.txt"]);
    return { capture: captured - start, gate: gitSpawnCount() - captured };
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

Deno.test({
  name:
    "the working context and gate --since start as many git processes for 2,000 files of each kind as for 10",
  ignore: Deno.build.os === "windows",
}, async () => {
  const small = await processes(10);
  const large = await processes(2000);
  assertEquals(large, small);
  // A sanity bound, not a target: gate reads HEAD again after status (review verify-2 F3),
  // both sides read the filter drivers before status, to turn them off (review gate-5), and
  // gate asks which paths `ident` or an encoding converts (review gate-6), lists the paths
  // under `ident` and reads where the snapshot's branch is (review gate-8); both sides read
  // the conversion settings no file shows, and gate the attributes files (review gate-9).
  assertEquals(small.capture < 28 && small.gate < 40, true, JSON.stringify(small));
});
