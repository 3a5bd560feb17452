/**
 * coord works in a SHA-256 repository: 64-hex artifacts are accepted and re-checked, and
 * a 40-hex prefix of a real commit is refused like any abbreviation.
 *
 * @module
 */
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { makeCoordRepo } from "./_coord_fixture.ts";

const REFUSAL =
  "refused: artifact not available (it does not resolve, or you may not inspect it)\n";

Deno.test("coord hands off and re-checks 64-hex commits in a SHA-256 repository and refuses a 40-hex prefix", async () => {
  const repo = await makeCoordRepo({ objectFormat: "sha256", status: "blind: W1 W2\n" });
  try {
    const a = await repo.commit("W1", { "proof.md": "sha256 proof\n" });
    assertEquals(a.length, 64);
    const h = await repo.coord("W1", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      a,
      "--path",
      "proof.md",
      "--subject",
      "A",
    ]);
    assertEquals(h.code, 0, h.stderr);
    const read = await repo.coord("Primary", ["read", h.stdout.trim()]);
    assertEquals(read.code, 0, read.stderr);
    assertIncludes(read.stdout, `artifact-commit: ${a}`);
    assertIncludes(read.stdout, "artifact-check: ok");
    const prefix = await repo.coord("W1", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      a.slice(0, 40),
      "--path",
      "proof.md",
      "--subject",
      "A",
    ]);
    assertEquals([prefix.code, prefix.stdout, prefix.stderr], [4, "", REFUSAL]);
    const foreign = await repo.coord("W2", [
      "handoff",
      "E001",
      "--to",
      "Primary",
      "--sha",
      a,
      "--path",
      "proof.md",
      "--subject",
      "A",
    ]);
    assertEquals([foreign.code, foreign.stdout, foreign.stderr], [4, "", REFUSAL]);
  } finally {
    await repo.cleanup();
  }
});
