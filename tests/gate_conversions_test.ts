/**
 * A checkout's conversion (CRLF, an encoding, a filter, `ident`) makes an untouched file's
 * bytes differ from its blob, and a child that turns the conversion off, or plants one,
 * changes no file. gate takes git's reading of such a file only under the spawn's conversion
 * settings; otherwise it cannot tell, and says so: such a claim is never confirmed and such
 * evidence never verified.
 */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { childOfSpawn, claimA, gate, result } from "./_gate_fixture.ts";
import { git, makeRepo, ROOT, run, writeFiles } from "./_helpers.ts";
import { PERMISSIONS } from "../src/permissions.ts";
import { encodeText } from "../src/encoding.ts";

const head = (repo: string) => git(repo, ["rev-parse", "HEAD"]);

/** Write `path` again as a checkout does under the repository's settings now. */
async function checkOut(repo: string, ...paths: string[]): Promise<void> {
  for (const path of paths) await Deno.remove(join(repo, path));
  await git(repo, ["checkout", "--", ...paths]);
}

/** The child's result: `a.ts` (committed) and `more` claimed, `cited` given as file evidence. */
async function claims(repo: string, more: string[], cited: string[] = more): Promise<string> {
  return result(["a.ts", ...more], [
    { kind: "commit", ref: await head(repo), ok: true },
    ...cited.map((ref) => ({ kind: "file", ref, ok: true })),
  ]);
}

/**
 * Give `path` new stat data, so that git compares its content again and lists it when that
 * differs: gate then cannot take it for a file git trusts by its stat data alone.
 */
async function touch(repo: string, path: string): Promise<void> {
  const now = Date.now() / 1000;
  await Deno.utime(join(repo, path), now - 7, now - 7);
}

/** UTF-16LE bytes of `text`. */
const utf16le = (text: string) => encodeText(text, "utf-16le");

/** Run `body` in a child of a spawn (see `childOfSpawn`), and remove the repository after. */
async function inChild(
  setup: ((repo: string) => Promise<void>) | undefined,
  body: (repo: string, since: string) => Promise<void>,
): Promise<void> {
  const { repo, since } = await childOfSpawn(setup);
  try {
    await body(repo, since);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
}

Deno.test("an untouched file of a CRLF checkout is not confirmed once its conversion is turned off", async () => {
  const tamper: Record<string, (repo: string) => Promise<void>> = {
    "core.autocrlf false": (repo) => git(repo, ["config", "core.autocrlf", "false"]).then(() => {}),
    "-text in info/attributes": (repo) =>
      Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "b.ts -text\n"),
  };
  for (const [name, act] of Object.entries(tamper)) {
    const { repo, since } = await childOfSpawn(async (repo) => {
      await git(repo, ["config", "core.autocrlf", "true"]);
      await checkOut(repo, "b.ts");
    });
    try {
      assertEquals(await Deno.readTextFile(join(repo, "b.ts")), "b1\r\n");
      await act(repo);
      await touch(repo, "b.ts");
      const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
      assertEquals(r.code, 1, `${name}: ${r.stderr}`);
      assertEquals(r.report.changes.confirmed, [], name);
      assertEquals(r.report.changes.claimed_unobserved, ["a.ts", "b.ts"], name);
      const cited = r.report.evidence.find((e: { ref: string }) => e.ref === "b.ts");
      assertEquals(cited.status, "unverified", name);
      assertEquals(
        r.report.reasons.some((x: string) => x.startsWith("Cannot tell whether claimed files")),
        true,
        JSON.stringify(r.report.reasons),
      );
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});

Deno.test("in a CRLF checkout whose settings stay, an edit is confirmed and an untouched file is not", async () => {
  await inChild(async (repo) => {
    await git(repo, ["config", "core.autocrlf", "true"]);
    await checkOut(repo, "b.ts", "lib/c.ts");
  }, async (repo, since) => {
    await writeFiles(repo, { "lib/c.ts": "c2\r\n" });
    const r = await gate(repo, await claims(repo, ["b.ts", "lib/c.ts"], ["lib/c.ts"]), [
      "--since",
      since,
    ]);
    assertEquals(r.report.changes.confirmed, ["a.ts", "lib/c.ts"], r.stderr);
    assertEquals(r.report.changes.claimed_unobserved, ["b.ts"], r.stderr);
    assertEquals(r.report.evidence[1].status, "verified", r.stderr);
    const quiet = await gate(repo, await claims(repo, ["lib/c.ts"]), ["--since", since]);
    assertEquals(quiet.code, 0, JSON.stringify(quiet.report));
    assertEquals(quiet.report.changes.observed_unclaimed, [], quiet.stderr);
  });
});

Deno.test("a line-end rewrite committed under a planted text attribute is listed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { "b.ts": "b1\r\nb2\r\n" });
    await git(repo, ["commit", "-q", "-am", "crlf"]);
  }, async (repo, since) => {
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "b.ts text\n");
    await git(repo, ["add", "--renormalize", "b.ts"]);
    await git(repo, ["commit", "-q", "-m", "normalized"]);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.ts"], r.stderr);
  });
});

Deno.test("a file checked out in UTF-16 is judged by git's re-encoding while the attributes stay", async () => {
  const encoded = async (repo: string) => {
    await writeFiles(repo, {
      ".gitattributes": "b.txt working-tree-encoding=UTF-16LE\n",
      "b.txt": utf16le("hello\n"),
    });
    await git(repo, ["add", ".gitattributes", "b.txt"]);
    await git(repo, ["commit", "-q", "-m", "utf-16"]);
  };
  await inChild(encoded, async (repo, since) => {
    // Untouched: not a change (it used to read as one, and a claim of it was confirmed).
    const idle = await gate(repo, await claims(repo, ["b.txt"]), ["--since", since]);
    assertEquals(idle.report.changes.claimed_unobserved, ["b.txt"], idle.stderr);
    assertEquals(idle.report.evidence[1].status, "preexisting", idle.stderr);
    await writeFiles(repo, { "b.txt": utf16le("bye\n") });
    const edited = await gate(repo, await claims(repo, ["b.txt"]), ["--since", since]);
    assertEquals(edited.report.changes.confirmed, ["a.ts", "b.txt"], edited.stderr);
  });
  // The child drops the encoding in .gitattributes (a change gate sees, and confirms), and
  // claims the untouched file too: that one cannot be told.
  const other = await childOfSpawn(encoded);
  try {
    await writeFiles(other.repo, { ".gitattributes": "\n" });
    await touch(other.repo, "b.txt");
    const r = await gate(other.repo, await claims(other.repo, [".gitattributes", "b.txt"]), [
      "--since",
      other.since,
    ]);
    assertEquals(r.report.changes.confirmed, [".gitattributes", "a.ts"], r.stderr);
    assertEquals(r.report.changes.claimed_unobserved, ["b.txt"], r.stderr);
    assertEquals(r.report.evidence[2].status, "unverified", r.stderr);
  } finally {
    await Deno.remove(other.repo, { recursive: true });
  }
});

Deno.test("a file a filter checked out is never confirmed untouched, and an ident checkout with CRLF is unchanged", async () => {
  await inChild(async (repo) => {
    const rot13 = "tr A-Za-z N-ZA-Mn-za-m";
    await git(repo, ["config", "filter.rot.clean", rot13]);
    await git(repo, ["config", "filter.rot.smudge", rot13]);
    await writeFiles(repo, {
      ".gitattributes": "*.rot filter=rot\nb.ts ident\n",
      "s.rot": "hello\n",
      "b.ts": "/* $Id$ */\nb1\n",
    });
    // Older than the index that records it, so status trusts its stat data at spawn (a
    // file as new as its index entry is compared by content, with the filter off, and the
    // snapshot would record it).
    await Deno.utime(join(repo, "s.rot"), 1_500_000_000, 1_500_000_000);
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "filtered"]);
    await git(repo, ["config", "core.autocrlf", "true"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    assertEquals((await Deno.readTextFile(join(repo, "b.ts"))).includes("$Id: "), true);
    assertEquals((await Deno.readTextFile(join(repo, "b.ts"))).endsWith("\r\n"), true);
    await touch(repo, "s.rot");
    const r = await gate(repo, await claims(repo, ["b.ts", "s.rot"]), ["--since", since]);
    assertEquals(r.report.changes.confirmed, ["a.ts"], r.stderr);
    assertEquals(r.report.changes.claimed_unobserved, ["b.ts", "s.rot"], r.stderr);
    assertEquals(r.report.evidence.map((e: { status: string }) => e.status), [
      "verified",
      "preexisting",
      "unverified",
    ]);
  });
});

Deno.test("under an ident attribute the spawn had, an edit inside $Id: … $ is observed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "b.ts ident\n", "b.ts": "/* $Id$ */\nb1\n" });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "ident"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    await writeFiles(repo, { "b.ts": "/* $Id: */ evil(); /* $ */\nb1\n" });
    // git's own filtered id of it collapses the keyword to the committed blob's.
    const collapsed = await git(repo, ["hash-object", "b.ts"]);
    assertEquals(collapsed, await git(repo, ["rev-parse", "HEAD:b.ts"]));
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.ts"], r.stderr);
  });
});

// Conversion settings changed where the checks above did not look: in the worktree only,
// before the spawn, with no home to expand ~ in, or where nothing converted.

Deno.test("a .gitattributes deleted from the worktree only leaves an untouched CRLF file unconfirmed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "b.ts text eol=crlf\n" });
    await git(repo, ["add", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "attr"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    await Deno.remove(join(repo, ".gitattributes")); // the index still holds it
    await git(repo, ["update-index", "--assume-unchanged", "b.ts"]); // read whatever status says
    const r = await gate(repo, await claims(repo, ["b.ts", ".gitattributes"], ["b.ts"]), [
      "--since",
      since,
    ]);
    assertEquals(r.code, 1, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed.includes("b.ts"), false, r.stderr);
    assertEquals(r.report.evidence[1].status === "verified", false, r.stderr);
  });
});

Deno.test("a CRLF file left by a conversion dropped before the spawn is not confirmed untouched", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "*.ts text eol=crlf\n" });
    await git(repo, ["add", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "attr"]);
    await checkOut(repo, "b.ts");
    // Stat data git trusts (older than the index), then the conversion goes (a pull).
    await Deno.utime(join(repo, "b.ts"), 1_500_000_000, 1_500_000_000);
    await git(repo, ["update-index", "--refresh"]);
    await git(repo, ["rm", "-q", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "drop the conversion"]);
    assertEquals(await git(repo, ["status", "--porcelain"]), "");
  }, async (repo, since) => {
    assertEquals(await Deno.readTextFile(join(repo, "b.ts")), "b1\r\n");
    const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(r.code, 1, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, ["a.ts"], r.stderr);
    assertEquals(r.report.changes.claimed_unobserved, ["b.ts"], r.stderr);
    assertEquals(r.report.evidence[1].status, "unverified", r.stderr);
    // Nor once the child adds line-end rules for it (the spawn converted nothing for it).
    await writeFiles(repo, { ".gitattributes": "*.ts text\n" });
    const ruled = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(ruled.report.changes.confirmed, ["a.ts"], ruled.stderr);
    // An edit of it is confirmed.
    await writeFiles(repo, { "b.ts": "b2\n" });
    const edited = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(edited.report.changes.confirmed, ["a.ts", "b.ts"], edited.stderr);
  });
});

Deno.test("with no home to expand ~ in, a conversion turned off still changes the settings", async () => {
  const info = await run(Deno.execPath(), ["info", "--json"]);
  const homeless = {
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "", DENO_DIR: JSON.parse(info.stdout).denoDir },
  };
  const tool = (name: "handshake" | "gate", args: string[], cwd: string, stdin: string) =>
    run(Deno.execPath(), [
      "run",
      "--quiet",
      "--no-prompt",
      ...PERMISSIONS[name],
      join(ROOT, `${name}.ts`),
      ...args,
    ], { ...homeless, cwd, stdin });
  const repo = await makeRepo({ files: { "a.ts": "a1\n", "b.ts": "b1\n" } });
  try {
    await git(repo, ["config", "core.autocrlf", "true"]);
    await checkOut(repo, "b.ts");
    const spawned = await tool("handshake", ["--json", "--context"], repo, "task");
    assertEquals(spawned.code, 0, spawned.stderr);
    await git(repo, ["config", "core.autocrlf", "false"]);
    await touch(repo, "b.ts");
    const r = await tool(
      "gate",
      ["--json", "--since", JSON.parse(spawned.stdout).snapshot_id],
      repo,
      result(["b.ts"], [{ kind: "file", ref: "b.ts", ok: true }]),
    );
    const report = JSON.parse(r.stdout);
    assertEquals(report.changes.confirmed, [], r.stderr);
    assertEquals(report.evidence[0].status === "verified", false, r.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("a child that adds line-end rules where the spawn converted nothing has its edits confirmed", async () => {
  await inChild(undefined, async (repo, since) => {
    await writeFiles(repo, { ".gitattributes": "* text=auto eol=lf\n" });
    await git(repo, ["add", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "normalize line ends"]);
    const r = await gate(repo, await claims(repo, [".gitattributes"]), ["--since", since]);
    assertEquals(r.code, 0, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, [".gitattributes", "a.ts"], r.stderr);
  });
});

Deno.test("a CRLF rewrite of an ident file where nothing converts line ends is listed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "b.ts ident\n", "b.ts": "$Id$\nb1\n" });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "ident"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    const expanded = await Deno.readTextFile(join(repo, "b.ts"));
    await writeFiles(repo, { "b.ts": expanded.replaceAll("\n", "\r\n") });
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.ts"], r.stderr);
  });
});

// Stat data git trusts, an ident file's CRLF, the older crlf attribute, text=auto,
// core.autocrlf=input and an encoding the child drops.

/** A CRLF checkout of b.ts that git trusts by stat data, then `core.autocrlf` turned off. */
async function staleCrlf(repo: string): Promise<void> {
  await git(repo, ["config", "core.autocrlf", "true"]);
  await checkOut(repo, "b.ts");
  await Deno.utime(join(repo, "b.ts"), 1_500_000_000, 1_500_000_000);
  await git(repo, ["update-index", "--refresh"]);
  await git(repo, ["config", "core.autocrlf", "false"]);
}

Deno.test("a touch or an index-only step leaves an untouched CRLF file unconfirmed", async () => {
  const steps: Record<string, (repo: string) => Promise<unknown>> = {
    touch: (repo) => touch(repo, "b.ts"),
    "chmod in the index": (repo) => git(repo, ["update-index", "--chmod=+x", "b.ts"]),
    "assume-unchanged": (repo) => git(repo, ["update-index", "--assume-unchanged", "b.ts"]),
  };
  for (const [name, step] of Object.entries(steps)) {
    const { repo, since } = await childOfSpawn(staleCrlf);
    try {
      await step(repo);
      const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
      assertEquals(r.report.changes.confirmed, ["a.ts"], `${name}: ${r.stderr}`);
      assertEquals(r.report.evidence[1].status === "verified", false, name);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});

Deno.test("an ident file checked out with CRLF before the conversion was dropped is not confirmed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "b.ts ident eol=crlf\n", "b.ts": "$Id$\nb1\n" });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "id"]);
    await checkOut(repo, "b.ts");
    await writeFiles(repo, { ".gitattributes": "b.ts ident\n" });
    await git(repo, ["commit", "-q", "-am", "drop eol=crlf"]);
  }, async (repo, since) => {
    const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(r.report.changes.confirmed, ["a.ts"], r.stderr);
    assertEquals(r.report.evidence[1].status === "verified", false, r.stderr);
  });
});

Deno.test("text decides before the older crlf attribute", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, {
      ".gitattributes": "* -crlf\nb.ts ident text eol=crlf\n",
      "b.ts": "$Id$\nb1\n",
    });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "attributes"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    assertEquals((await Deno.readTextFile(join(repo, "b.ts"))).endsWith("\r\n"), true);
    const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(r.report.changes.claimed_unobserved, ["b.ts"], r.stderr);
    assertEquals(r.report.evidence[1].status, "preexisting", r.stderr);
  });
});

Deno.test("under text=auto a blob holding a CR is written as it is, so a CRLF rewrite is listed", async () => {
  await inChild(async (repo) => {
    // Long enough to look like text: only its CR keeps git from converting it.
    await writeFiles(repo, { "b.ts": `$Id$\r\n${"b".repeat(300)}\nb1\n` });
    await git(repo, ["commit", "-q", "-am", "mixed"]);
    await writeFiles(repo, { ".gitattributes": "b.ts ident text=auto eol=crlf\n" });
    await git(repo, ["add", ".gitattributes"]);
    await git(repo, ["commit", "-q", "-m", "id"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    const written = await Deno.readTextFile(join(repo, "b.ts"));
    await writeFiles(repo, { "b.ts": written.replace(/(?<!\r)\n/g, "\r\n") });
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.ts"], r.stderr);
  });
});

Deno.test("under core.autocrlf=input a child that adds line-end rules has its edits confirmed", async () => {
  await inChild(async (repo) => {
    await git(repo, ["config", "core.autocrlf", "input"]);
  }, async (repo, since) => {
    await writeFiles(repo, { "b.ts": "b2\n", ".gitattributes": "* text=auto eol=lf\n" });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "normalize"]);
    const r = await gate(repo, await claims(repo, ["b.ts", ".gitattributes"], []), [
      "--since",
      since,
    ]);
    assertEquals(r.code, 0, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, [".gitattributes", "a.ts", "b.ts"], r.stderr);
  });
});

/** A committed `b.txt` checked out in ISO-8859-1, a form gate does not compute itself. */
async function latin1(repo: string): Promise<void> {
  await writeFiles(repo, {
    ".gitattributes": "b.txt working-tree-encoding=ISO-8859-1\n",
    "b.txt": Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), // "café\n"
  });
  await git(repo, ["add", ".gitattributes", "b.txt"]);
  await git(repo, ["commit", "-q", "-m", "latin-1"]);
}

Deno.test("an encoding the child drops, in .gitattributes or in the worktree only, leaves an untouched file unconfirmed", async () => {
  const drops: Record<string, (repo: string) => Promise<void>> = {
    "edited out": (repo) => writeFiles(repo, { ".gitattributes": "\n" }),
    "deleted from the worktree only": (repo) => Deno.remove(join(repo, ".gitattributes")),
  };
  for (const [name, drop] of Object.entries(drops)) {
    const { repo, since } = await childOfSpawn(latin1);
    try {
      await drop(repo);
      const r = await gate(repo, await claims(repo, ["b.txt"]), ["--since", since]);
      assertEquals(r.report.changes.confirmed, ["a.ts"], `${name}: ${r.stderr}`);
      assertEquals(r.report.evidence[1].status, "unverified", name);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});

// The blob's own bytes over a checkout, clean filters in file evidence, and blobs written
// as they are.

Deno.test("the blob's own bytes written over a UTF-16 checkout are listed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, {
      ".gitattributes": "b.txt working-tree-encoding=UTF-16LE\n",
      "b.txt": utf16le("hi\n"),
    });
    await git(repo, ["add", ".gitattributes", "b.txt"]);
    await git(repo, ["commit", "-q", "-m", "utf-16"]);
  }, async (repo, since) => {
    await writeFiles(repo, { "b.txt": "hi\n" }); // what the blob holds, not what a checkout writes
    assertEquals(await git(repo, ["status", "--porcelain"]), " M b.txt");
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.txt"], r.stderr);
  });
});

Deno.test("file evidence never runs a clean filter the child planted", async () => {
  const { repo, since, head: commit } = await childOfSpawn();
  const marker = join(repo, ".git", "clean-ran");
  try {
    await git(repo, ["config", "filter.x.clean", `sh -c 'echo ran >> ${marker}; cat'`]);
    await Deno.writeTextFile(join(repo, ".git", "info", "attributes"), "a.ts filter=x\n");
    // With the spawn: the planted attribute changed the settings, so a.ts cannot be told.
    for (const [args, status] of [[["--since", since], "unverified"], [[], "verified"]] as const) {
      const r = await gate(repo, claimA(commit), [...args]);
      assertEquals(r.report.evidence[1].status, status, r.stderr);
    }
    assertEquals(await Deno.stat(marker).then(() => true, () => false), false, "the filter ran");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("under text=auto a blob that looks binary is written as it is, so a CRLF rewrite is listed", async () => {
  await inChild(async (repo) => {
    await git(repo, ["config", "core.eol", "crlf"]);
    await writeFiles(repo, {
      ".gitattributes": "b.ts ident text=auto\n",
      "b.ts": "$Id$\n\x01\x02\x03\x04\x05\x06\x11\x12\x13\x14\n",
    });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "binary"]);
    await checkOut(repo, "b.ts");
  }, async (repo, since) => {
    const written = await Deno.readTextFile(join(repo, "b.ts"));
    await writeFiles(repo, { "b.ts": written.replaceAll("\n", "\r\n") });
    const r = await gate(repo, claimA(await head(repo)), ["--since", since]);
    assertEquals(r.report.changes.observed_unclaimed, ["b.ts"], r.stderr);
  });
});

// Honest flows the checks above must not stop.

Deno.test("a parent's uncommitted .gitattributes that the child stages with git add -A keeps its edits confirmed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, { ".gitattributes": "*.md text\n" }); // untracked at spawn
  }, async (repo, since) => {
    await writeFiles(repo, { "b.ts": "b2\n" });
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "more"]);
    const r = await gate(repo, await claims(repo, ["b.ts"]), ["--since", since]);
    assertEquals(r.code, 0, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, ["a.ts", "b.ts"], r.stderr);
  });
});

Deno.test("a filter attribute naming a driver the config does not define runs nothing: an edit is confirmed", async () => {
  await inChild(async (repo) => {
    await writeFiles(repo, {
      ".gitattributes": "*.png filter=lfs diff=lfs merge=lfs -text\n",
      "i.png": Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0x41]),
    });
    await git(repo, ["add", "."]);
    await git(repo, ["commit", "-q", "-m", "image"]);
  }, async (repo, since) => {
    await writeFiles(repo, { "i.png": Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0x42]) });
    await git(repo, ["commit", "-q", "-am", "edit"]);
    const r = await gate(repo, await claims(repo, ["i.png"]), ["--since", since]);
    assertEquals(r.code, 0, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, ["a.ts", "i.png"], r.stderr);
  });
});

Deno.test("under core.autocrlf=true a child that adds *.png binary while editing a PNG has it confirmed", async () => {
  const png = (last: number) =>
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, last]);
  await inChild(async (repo) => {
    await writeFiles(repo, { "i.png": png(1) });
    await git(repo, ["add", "i.png"]);
    await git(repo, ["commit", "-q", "-m", "image"]);
    await git(repo, ["config", "core.autocrlf", "true"]);
  }, async (repo, since) => {
    await writeFiles(repo, { ".gitattributes": "*.png binary\n", "i.png": png(2) });
    await git(repo, ["add", "-A"]);
    await git(repo, ["commit", "-q", "-m", "edit"]);
    const r = await gate(repo, await claims(repo, ["i.png", ".gitattributes"], ["i.png"]), [
      "--since",
      since,
    ]);
    assertEquals(r.code, 0, JSON.stringify(r.report));
    assertEquals(r.report.changes.confirmed, [".gitattributes", "a.ts", "i.png"], r.stderr);
  });
});
