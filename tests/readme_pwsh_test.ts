/**
 * PowerShell for real: the README's PowerShell dispatcher and the reference's Step 0 snippet
 * (docs/reference.md) run under `pwsh`,
 * and what Windows PowerShell 5.1 does to text (UTF-16LE files from `>` and `Out-File`,
 * `$OutputEncoding` on pipes to native commands) is reproduced by writing those bytes from
 * pwsh explicitly. Skipped, with a printed line, only where no pwsh can be had.
 */
import { assertEquals, assertOk } from "../src/_assert.ts";
import { join } from "../src/_path.ts";
import { decodePrompt } from "../src/encoding.ts";
import {
  findPwsh,
  makeSite,
  markedExamples,
  pasteBlock,
  README,
  REFERENCE,
  runScript,
  type Site,
  stepZeroCommands,
} from "./_readme.ts";
import { bin, git } from "./_helpers.ts";

const PWSH = await findPwsh();
if (!PWSH) {
  console.log(
    "PowerShell tests skipped: no pwsh found ($PWSH, pwsh on PATH, ~/.dotnet/tools/pwsh); " +
      "install it with: dotnet tool install --global PowerShell --version 7.6.9",
  );
}

/** A PowerShell test: skipped (and said so above) when there is no pwsh. */
function pwshTest(name: string, body: (site: Site, pwsh: string) => Promise<void>): void {
  Deno.test({
    name,
    ignore: PWSH === undefined,
    fn: async () => {
      const site = await makeSite();
      try {
        await body(site, PWSH!);
      } finally {
        await Deno.remove(site.root, { recursive: true });
      }
    },
  });
}

/** The block at the top of a wrapped prompt. */
async function parentBlock(site: Site): Promise<string> {
  return (await bin("handshake", [], { cwd: site.repo })).stdout;
}

pwshTest(
  "README: the PowerShell dispatcher runs three agents from one capture under pwsh",
  async (site, pwsh) => {
    const code = markedExamples(README).get("powershell-dispatcher")?.code;
    assertOk(code, "no PowerShell dispatcher in the README");
    const r = await runScript(site, "powershell", code, pwsh);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assertEquals(lines.length, 3, r.stdout);
    const heads = new Set(lines.map((l) => l.replace(/^environment-verified: /, "")));
    assertEquals(heads.size, 1, r.stdout);
    assertOk(lines.every((l) => l.startsWith("environment-verified: ")), r.stdout);
    assertEquals([...Deno.readDirSync(site.tmp)], [], "the example removes its temp dir");
    assertEquals(await git(site.repo, ["status", "--porcelain"]), "");
  },
);

pwshTest(
  "reference: the Step 0 snippet in PowerShell (block in a here-string piped to verify) matches",
  async (site, pwsh) => {
    const command = pasteBlock(
      stepZeroCommands(REFERENCE).get("powershell")!,
      await parentBlock(site),
    );
    const r = await runScript(site, "powershell", command, pwsh);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    assertEquals(await git(site.repo, ["status", "--porcelain"]), "");
  },
);

pwshTest(
  "PowerShell: a pipe in UTF-16 ($OutputEncoding = Unicode or BigEndianUnicode, as 5.1 can be set) reaches verify intact",
  async (site, pwsh) => {
    const block = await parentBlock(site);
    for (const encoding of ["Unicode", "BigEndianUnicode"]) {
      const script =
        `$OutputEncoding = [System.Text.Encoding]::${encoding}\n@'\n${block}'@ | verify\n`;
      const r = await runScript(site, "powershell", script, pwsh);
      assertEquals(r.code, 0, `${encoding}: ${r.stdout}${r.stderr}`);
      assertOk(r.stdout.startsWith("environment-verified: "), r.stdout);
    }
  },
);

pwshTest(
  "PowerShell: prompts saved as UTF-16 by Out-File -Encoding unicode (5.1's > and Out-File) are read by verify",
  async (site, pwsh) => {
    const wrapped =
      (await bin("handshake", ["wrap"], { cwd: site.repo, stdin: "R\u00e9sum\u00e9.\n" }))
        .stdout;
    const le = join(site.tmp, "prompt-le.md");
    const be = join(site.tmp, "prompt-be.md");
    const script = [
      "$prompt = @'",
      wrapped.trimEnd(),
      "'@",
      `$prompt | Out-File -Encoding unicode '${le}'`,
      `[System.IO.File]::WriteAllText('${be}', $prompt, [System.Text.Encoding]::BigEndianUnicode)`,
      "",
    ].join("\n");
    const r = await runScript(site, "powershell", script, pwsh);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    for (const file of [le, be]) {
      const bytes = await Deno.readFile(file);
      assertEquals(decodePrompt(bytes).encoding, file === le ? "utf-16le" : "utf-16be");
      assertEquals([...bytes.subarray(0, 2)], file === le ? [0xff, 0xfe] : [0xfe, 0xff]);
      const v = await bin("verify", [], { cwd: site.repo, stdin: bytes });
      assertEquals(v.code, 0, `${file}: ${v.stdout}`);
    }
  },
);

pwshTest(
  "PowerShell: a UTF-16 prompt piped to handshake wrap comes back UTF-16, BOM first, and verify reads it",
  async (site, pwsh) => {
    const out = join(site.tmp, "wrapped.md");
    // pwsh 7.4+ keeps a native command's bytes when its output is redirected to a file.
    const script = [
      "$OutputEncoding = [System.Text.Encoding]::Unicode",
      `'R\u00e9sum\u00e9 du travail.' | handshake wrap > '${out}'`,
      "",
    ].join("\n");
    const r = await runScript(site, "powershell", script, pwsh);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const bytes = await Deno.readFile(out);
    const decoded = decodePrompt(bytes);
    assertEquals([decoded.encoding, [...decoded.bom], decoded.valid], [
      "utf-16le",
      [0xff, 0xfe],
      true,
    ]);
    assertOk(decoded.text.startsWith("<!-- subagent-env-handshake v1 -->\n"), decoded.text);
    assertOk(
      decoded.text.endsWith("-->\n\nR\u00e9sum\u00e9 du travail.\n"),
      JSON.stringify(decoded.text),
    );
    const v = await bin("verify", [], { cwd: site.repo, stdin: bytes });
    assertEquals(v.code, 0, v.stdout);
  },
);
