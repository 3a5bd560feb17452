/**
 * coord reads history and configuration in a way the caller's environment and stray
 * repository files cannot bend, and fails closed when git cannot give the whole history:
 * a `GIT_CONFIG` variable cannot drop the configured policy ref, pathspec variables do
 * not break a handoff, a forged commit-graph file cannot cut a commit out of a history,
 * and a history git cannot walk (a truly shallow repository) shows no lane anything after
 * `base`, with the single refusal and no commit id.
 *
 * @module
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertExcludes, assertOk } from "../src/_assert.ts";
import { ARTIFACT_REFUSAL } from "../src/coord/errors.ts";
import { bin, type Run } from "./_helpers.ts";
import { type CoordRepo, type Lane, makeCoordRepo } from "./_coord_fixture.ts";

const show = (r: Run) => `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;

function handoffArgs(to: string, sha: string, path: string): string[] {
  return ["handoff", "E001", "--to", to, "--sha", sha, "--path", path, "--subject", "h"];
}

function coordWithEnv(repo: CoordRepo, lane: Lane, args: string[], env: Record<string, string>) {
  return bin("coord", args, { cwd: repo.wt[lane], env, stdin: "body\n" });
}

function assertRefused(r: Run, what: string) {
  assertEquals(r.code, 4, `${what}\n${show(r)}`);
  assertEquals(r.stdout, "", what);
  assertEquals(r.stderr, `${ARTIFACT_REFUSAL}\n`, what);
}

Deno.test("a GIT_CONFIG variable cannot make coord drop the configured policy ref for main's", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1 W2\n" });
  try {
    // The canonical policy lives on refs/heads/policy (blind); main's STATUS is open.
    await repo.git("Primary", ["branch", "policy"]);
    await repo.git("Primary", ["config", "coord.policyRef", "refs/heads/policy"]);
    await repo.setStatus("");
    const send = ["send", "E001", "--to", "W1", "--subject", "hi"];
    assertEquals((await repo.coord("W2", send, "x\n")).code, 4, "blind under the policy ref");
    for (const value of ["/nonexistent/config", ""]) {
      const r = await coordWithEnv(repo, "W2", send, { GIT_CONFIG: value });
      assertOk(r.code === 4 || r.code === 3, `GIT_CONFIG=${JSON.stringify(value)}\n${show(r)}`);
    }
    assertEquals((await repo.coord("W1", ["inbox", "E001"])).stdout, "");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("pathspec variables in the caller's environment do not break a handoff", async () => {
  const repo = await makeCoordRepo();
  try {
    const sha = await repo.commit("W1", { "notes/a*.md": "star\n", "notes/ab.md": "ab\n" });
    for (
      const env of [{ GIT_GLOB_PATHSPECS: "1" }, { GIT_ICASE_PATHSPECS: "1" }, {
        GIT_NOGLOB_PATHSPECS: "1",
      }]
    ) {
      const r = await coordWithEnv(repo, "W1", [
        ...handoffArgs("Primary", sha, "notes/a*.md"),
        "--json",
      ], env);
      assertEquals(r.code, 0, `${JSON.stringify(env)}\n${show(r)}`);
      assertEquals(JSON.parse(r.stdout).artifact.path, "notes/a*.md");
    }
  } finally {
    await repo.cleanup();
  }
});

Deno.test("a history git cannot walk (a truly shallow repository) fails closed: one refusal, no commit id", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1\n" });
  try {
    const d1 = await repo.commit("W1", { "proof/w1.md": "draft\n" }, "W1 draft");
    const d2 = await repo.commit("W1", { "proof/w1.md": "frozen\n" }, "W1 frozen");
    await repo.git("Primary", ["checkout", "-q", "--detach", d2]);
    const p = await repo.commit("Primary", { "notes.md": "Primary on W1's\n" }, "Primary on W1");
    await repo.git("Primary", ["checkout", "-q", "main"]);
    const own = await repo.coord("W1", handoffArgs("Primary", d2, "proof/w1.md"), "x\n");
    assertEquals(own.code, 0, show(own));
    const id = own.stdout.trim();
    const pub = await repo.coord("Primary", handoffArgs("W3", repo.base, "README.md"), "x\n");
    assertEquals(pub.code, 0, show(pub));

    // What a shallow clone looks like: a shallow file naming d2, and d2's parent absent.
    const common = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    await Deno.writeTextFile(join(common, "shallow"), `${d2}\n`);
    await Deno.remove(join(common, "objects", d1.slice(0, 2), d1.slice(2)));

    const attempts: Run[] = [];
    for (
      const [lane, sha] of [["W3", p], ["W3", d2], ["W1", d2], ["W1", "HEAD"]] as Array<
        [Lane, string]
      >
    ) {
      const r = await repo.coord(lane, handoffArgs("Primary", sha, "proof/w1.md"), "x\n");
      assertRefused(r, `${lane} handoff of ${sha} over a history git cannot walk`);
      attempts.push(r);
    }
    const inbox = await repo.coord("W1", ["inbox", "E001"]);
    assertEquals(inbox.code, 0, show(inbox));
    const status = await repo.coord("W3", ["status"]);
    assertEquals(status.code, 0, show(status));
    const publicRead = await repo.coord("W3", ["read", pub.stdout.trim()]);
    assertEquals(publicRead.code, 0, show(publicRead));
    attempts.push(inbox, await repo.coord("W1", ["read", id]), status, publicRead);
    for (const r of attempts) {
      for (const sha of [d1, d2, p]) {
        assertExcludes(r.stdout + r.stderr, sha);
        assertExcludes(r.stdout + r.stderr, sha.slice(0, 7));
      }
    }
    const primary = await repo.coord("Primary", ["read", id]);
    assertEquals(primary.code, 0, show(primary));
  } finally {
    await repo.cleanup();
  }
});

/**
 * Rewrite the first parent of one commit in a commit-graph file (and its checksum), as a
 * lane with a shell could: git then reports that parent for the commit.
 */
async function forgeGraphParent(file: string, commit: string, parent: string): Promise<void> {
  const bytes = await Deno.readFile(file);
  const view = new DataView(bytes.buffer);
  const hashLength = 20;
  const chunks = new Map<string, number>();
  for (let i = 0; i <= bytes[6]!; i++) {
    const id = new TextDecoder().decode(bytes.subarray(8 + 12 * i, 12 + 12 * i));
    chunks.set(id, Number(view.getBigUint64(12 + 12 * i)));
  }
  const fanout = chunks.get("OIDF")!;
  const count = view.getUint32(fanout + 255 * 4);
  const lookup = chunks.get("OIDL")!;
  const hex = (i: number) =>
    [...bytes.subarray(lookup + hashLength * i, lookup + hashLength * (i + 1))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
  const ids = Array.from({ length: count }, (_, i) => hex(i));
  const at = ids.indexOf(commit);
  const to = ids.indexOf(parent);
  assertOk(at >= 0 && to >= 0, "both commits are in the commit-graph");
  view.setUint32(chunks.get("CDAT")! + (hashLength + 16) * at + hashLength, to);
  const body = bytes.subarray(0, bytes.length - hashLength);
  bytes.set(new Uint8Array(await crypto.subtle.digest("SHA-1", body)), body.length);
  await Deno.chmod(file, 0o644);
  await Deno.writeFile(file, bytes);
}

Deno.test("a forged commit-graph file cannot cut W1's commit out of the history of Primary's commit on it", async () => {
  const repo = await makeCoordRepo({ status: "blind: W1\n" });
  try {
    const d = await repo.commit("W1", { "proof/w1.md": "W1 private\n" }, "W1 frozen");
    await repo.git("Primary", ["checkout", "-q", "--detach", d]);
    const p = await repo.commit("Primary", { "notes.md": "Primary on W1's\n" }, "Primary on W1");
    await repo.git("Primary", ["checkout", "-q", "main"]);
    await repo.git("Primary", ["branch", "primary-on-w1", p]);
    const probe = handoffArgs("Primary", p, "proof/w1.md");
    assertRefused(await repo.coord("W3", probe, "x\n"), "W3 handoff of Primary's commit on W1's");

    await repo.git("Primary", ["commit-graph", "write", "--reachable"]);
    const common = await repo.git("Primary", [
      "rev-parse",
      "--path-format=absolute",
      "--git-common-dir",
    ]);
    await forgeGraphParent(join(common, "objects", "info", "commit-graph"), p, repo.base);
    assertEquals(
      await repo.git("W3", ["rev-list", "--parents", "-1", p]),
      `${p} ${repo.base}`,
      "git itself now believes the forgery",
    );
    assertRefused(await repo.coord("W3", probe, "x\n"), "W3 handoff with a forged commit-graph");
  } finally {
    await repo.cleanup();
  }
});
