/**
 * Prompt encodings: UTF-16 with a BOM (what Windows PowerShell writes) is read by verify,
 * handshake wrap and gate; wrap never alters the bytes of the prompt it passes through;
 * bytes that cannot be decoded take verify's error path, never the missing path.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { decodePrompt, encodeText } from "../src/encoding.ts";
import { join } from "../src/_path.ts";
import { type BinaryName, PERMISSIONS } from "../src/permissions.ts";
import { bin, commitAll, makeRepo, ROOT, tempDir } from "./_helpers.ts";

const LATIN1_PROMPT = new Uint8Array([0x52, 0xe9, 0x73, 0x75, 0x6d, 0xe9, 0x0a]); // "Résumé\n" in Latin-1

/** Run an entry point under its own flags with raw bytes on stdin; stdout stays bytes. */
async function binBytes(
  name: BinaryName,
  args: string[],
  cwd: string,
  stdin: Uint8Array,
): Promise<{ code: number; stdout: Uint8Array; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      "--no-prompt",
      ...PERMISSIONS[name],
      join(ROOT, `${name}.ts`),
      ...args,
    ],
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(stdin);
  await writer.close();
  const out = await child.output();
  return { code: out.code, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr) };
}

function utf16(text: string, encoding: "utf-16le" | "utf-16be"): Uint8Array {
  const bom = encoding === "utf-16le" ? [0xff, 0xfe] : [0xfe, 0xff];
  return new Uint8Array([...bom, ...encodeText(text, encoding)]);
}

Deno.test("verify reads a prompt saved as UTF-16LE or UTF-16BE with a BOM (Windows PowerShell's > and Out-File)", async () => {
  const repo = await makeRepo();
  try {
    const wrapped = (await bin("handshake", ["wrap"], { cwd: repo, stdin: "Review.\r\n" })).stdout;
    for (const encoding of ["utf-16le", "utf-16be"] as const) {
      const r = await bin("verify", [], { cwd: repo, stdin: utf16(wrapped, encoding) });
      assertEquals(r.code, 0, `${encoding}: ${r.stdout}${r.stderr}`);
      assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    }
    // Without a BOM (a pipe from PowerShell with $OutputEncoding set to Unicode may send none).
    const bare = await bin("verify", [], { cwd: repo, stdin: encodeText(wrapped, "utf-16le") });
    assertEquals(bare.code, 0, bare.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify: a prompt that is not UTF-8 and holds no readable block takes the error path, not missing", async () => {
  const repo = await makeRepo();
  try {
    const r = await bin("verify", [], { cwd: repo, stdin: LATIN1_PROMPT });
    assertEquals(r.code, 3);
    assertEquals(
      r.stdout.split("\n")[0],
      "environment-unverified: handshake block unparseable: the prompt cannot be read: it is not valid UTF-8 (or UTF-16 with a byte order mark)",
    );
    // A UTF-16 file cut in the middle of a character is not valid UTF-16 either.
    const cut = await bin("verify", ["--json"], {
      cwd: repo,
      stdin: new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x21]),
    });
    assertEquals(cut.code, 3);
    assertOk(/not valid UTF-16LE/.test(JSON.parse(cut.stdout).reason), cut.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("verify: a block whose values are not valid UTF-8 is unparseable, not a mismatch", async () => {
  const repo = await makeRepo();
  try {
    const block = (await bin("handshake", [], { cwd: repo })).stdout;
    const bytes = new TextEncoder().encode(
      block.replace("parent_branch: main", "parent_branch: m\u0000"),
    );
    bytes[bytes.indexOf(0)] = 0xe9; // a Latin-1 byte inside the branch value
    const r = await bin("verify", [], { cwd: repo, stdin: bytes });
    assertEquals(r.code, 3, r.stdout);
    assertOk(/the handshake block is not valid UTF-8/.test(r.stdout), r.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("handshake wrap passes a Latin-1 prompt through byte for byte, and verify reads the result", async () => {
  const repo = await makeRepo();
  try {
    const r = await binBytes("handshake", ["wrap"], repo, LATIN1_PROMPT);
    assertEquals(r.code, 0, r.stderr);
    const tail = r.stdout.subarray(r.stdout.length - LATIN1_PROMPT.length);
    assertEquals([...tail], [...LATIN1_PROMPT]);
    const head = new TextDecoder().decode(
      r.stdout.subarray(0, r.stdout.length - LATIN1_PROMPT.length),
    );
    assertOk(head.startsWith("<!-- subagent-env-handshake v1 -->\n"), head);
    assertOk(head.endsWith("<!-- /subagent-env-handshake -->\n\n"), head);
    const v = await bin("verify", [], { cwd: repo, stdin: r.stdout });
    assertEquals(v.code, 0, v.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("handshake wrap writes the block in a UTF-16 prompt's encoding, BOM first, prompt bytes unchanged", async () => {
  const repo = await makeRepo();
  try {
    for (const encoding of ["utf-16le", "utf-16be"] as const) {
      const prompt = utf16("Relis le r\u00e9sum\u00e9 \u{1F600}.\r\n", encoding);
      const r = await binBytes("handshake", ["wrap"], repo, prompt);
      assertEquals(r.code, 0, r.stderr);
      assertEquals([...r.stdout.subarray(0, 2)], [...prompt.subarray(0, 2)], "BOM first");
      assertEquals(
        [...r.stdout.subarray(r.stdout.length - (prompt.length - 2))],
        [...prompt.subarray(2)],
        "the prompt's bytes after its BOM come last, unchanged",
      );
      const decoded = decodePrompt(r.stdout);
      assertEquals([decoded.encoding, decoded.valid], [encoding, true]);
      assertOk(decoded.text.startsWith("<!-- subagent-env-handshake v1 -->\n"), decoded.text);
      const v = await bin("verify", [], { cwd: repo, stdin: r.stdout });
      assertEquals(v.code, 0, `${encoding}: ${v.stdout}`);
    }
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("handshake wrap --json decodes a UTF-16 prompt into the prompts it returns", async () => {
  const repo = await makeRepo();
  try {
    const r = await bin("handshake", ["wrap", "--json"], {
      cwd: repo,
      stdin: utf16("caf\u00e9", "utf-16le"),
    });
    assertEquals(r.code, 0, r.stderr);
    assertOk(JSON.parse(r.stdout).prompt.endsWith("\n\ncaf\u00e9"), r.stdout);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("gate reads a SubagentResult saved as UTF-16LE with a BOM and rejects bytes that decode as nothing", async () => {
  const repo = await makeRepo();
  try {
    const head = await commitAll(repo, "work");
    const result = JSON.stringify({
      ok: true,
      summary: "R\u00e9sum\u00e9",
      files_changed: [],
      errors: [],
      evidence: [{ kind: "commit", ref: head, ok: true }],
    });
    const g = await bin("gate", [], { cwd: repo, stdin: utf16(result, "utf-16le") });
    assertEquals(g.code, 0, g.stdout + g.stderr);
    const bad = await bin("gate", [], { cwd: repo, stdin: LATIN1_PROMPT });
    assertEquals(bad.code, 1);
    assertEquals(bad.stderr, "error: Result is not valid UTF-8\n");
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("handshake wrap that cannot capture passes a Latin-1 or UTF-16 prompt through byte for byte", async () => {
  const notRepo = await tempDir();
  try {
    for (const prompt of [LATIN1_PROMPT, utf16("caf\u00e9\n", "utf-16le")]) {
      const r = await binBytes("handshake", ["wrap"], notRepo, prompt);
      assertEquals(r.code, 0, r.stderr);
      assertEquals([...r.stdout], [...prompt]);
      assertOk(r.stderr.includes("prompt passed through without a handshake block"), r.stderr);
    }
  } finally {
    await Deno.remove(notRepo, { recursive: true });
  }
});
