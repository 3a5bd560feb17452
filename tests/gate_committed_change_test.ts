/**
 * What a child commits cannot hide a change or confirm a claim no file shows: a deletion
 * committed while the file stays, carriage returns committed under a planted or the spawn's
 * own text attribute, a branch reset onto another, a commit left on the snapshot's branch
 * while HEAD is detached elsewhere (found even when a tag has the branch's name). Committing,
 * amending or staging the parent's own edit is no change.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { childOfSpawn, claimA, gate } from "./_gate_fixture.ts";
import { git, writeFiles } from "./_helpers.ts";

/** A repository with `a.ts`, `b.ts`, `b.sh`; spawn; the child commits its claimed `a.ts`. */
const child = (setup?: (repo: string) => Promise<void>) =>
  childOfSpawn(setup, { "a.ts": "a1\n", "b.ts": "b1\n", "b.sh": "#!/bin/sh\necho hi\n" });

const head = (repo: string) => git(repo, ["rev-parse", "HEAD"]);

Deno.test("a deletion committed while the file stays on disk is observed", async () => {
  const { repo, since } = await child();
  try {
    await git(repo, ["rm", "-q", "--cached", "b.ts"]);
    await git(repo, ["commit", "-q", "-m", "del"]);
    await Deno.writeTextFile(join(repo, ".git", "info", "exclude"), "b.ts\n");
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("carriage returns committed or written under a planted ident or text attribute are observed", async () => {
  for (const attribute of ["ident", "text"]) {
    const { repo, since } = await child();
    try {
      await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), `b.sh ${attribute}\n`);
      await writeFiles(repo, { "b.sh": "#!/bin/sh\r\necho hi\r\n" });
      const written = await gate(repo, claimA(await head(repo)), ["--since", since]);
      // Under `text` a CRLF worktree is what a checkout on Windows writes: no change, as
      // documented; under `ident` nothing converts line ends.
      if (attribute === "ident") {
        assertEquals(
          written.report?.changes?.observed_unclaimed,
          ["b.sh"],
          `${attribute}: ${written.stderr}`,
        );
      }
      await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "");
      await git(repo, ["commit", "-q", "-am", "crlf"]);
      await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), `b.sh ${attribute}\n`);
      const committed = await gate(repo, claimA(await head(repo)), ["--since", since]);
      assertEquals(
        committed.report?.changes?.observed_unclaimed,
        ["b.sh"],
        `${attribute}: ${committed.stderr}`,
      );
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});

Deno.test("a CRLF blob committed beside a rewrite the spawn's own text attribute normalizes is observed", async () => {
  const { repo, since } = await child(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "b.sh text\n" });
    await git(repo, ["add", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "text"]);
  });
  try {
    // The rewrite is what `git add` stores as the spawn's blob: no change of content.
    await writeFiles(repo, { "b.sh": "#!/bin/sh\r\necho hi\r\n" });
    const crlf = await git(repo, ["hash-object", "-w", "--no-filters", "b.sh"]);
    await git(repo, ["update-index", "--cacheinfo", `100644,${crlf},b.sh`]);
    await git(repo, ["commit", "-q", "-m", "crlf"]);
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.sh"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a branch reset onto another branch lists what it holds and confirms no claim", async () => {
  const { repo, since } = await child(async (repo) => {
    await git(repo, ["checkout", "-q", "-b", "other"]);
    await writeFiles(repo, { "b.ts": "b-other\n" });
    await git(repo, ["commit", "-q", "-am", "other"]);
    await git(repo, ["checkout", "-q", "main"]);
  });
  try {
    await git(repo, ["reset", "-q", "--soft", "other"]);
    const r = await gate(repo, claimA(await head(repo), ["b.ts"]), ["--since", since]);
    assertEquals(r.code, 1, r.stderr);
    assertEquals(r.report?.changes?.claimed_unobserved, ["b.ts"], JSON.stringify(r.report));
    const quiet = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(quiet.report?.changes?.observed_unclaimed.includes("b.ts"), true, quiet.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("committing the parent's own edit, amending, and staging it are no change", async () => {
  const { repo, since } = await child(async (repo) => {
    await writeFiles(repo, { "b.ts": "b-parent\n" });
  });
  try {
    await git(repo, ["commit", "-q", "--amend", "--no-edit", "-a"]);
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.report?.changes?.observed_unclaimed, [], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a commit left on the snapshot's branch while HEAD is detached elsewhere is observed", async () => {
  const { repo, since } = await child();
  try {
    const mine = await head(repo);
    await writeFiles(repo, { "b.ts": "evil()\n" });
    await git(repo, ["commit", "-q", "-am", "evil"]);
    await git(repo, ["checkout", "-q", "--detach", mine]);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(mine), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("the branch comparison finds the snapshot's branch when a tag has its name", async () => {
  const { repo, since } = await child(async (repo) => {
    await git(repo, ["tag", "main"]); // `rev-parse --abbrev-ref HEAD` now says `heads/main`
  });
  try {
    const mine = await head(repo);
    await writeFiles(repo, { "b.ts": "evil()\n" });
    await git(repo, ["commit", "-q", "-am", "evil"]);
    await git(repo, ["checkout", "-q", "--detach", mine]);
    const r = await gate(repo, claimA(mine), ["--since", since]);
    assertEquals(r.report?.changes?.observed_unclaimed, ["b.ts"], r.stderr);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
