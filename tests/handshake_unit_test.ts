/**
 * Pure logic of the handshake: fingerprint vectors, block build and parse, the finding
 * text (golden), cwd spellings, times.
 */
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { buildBlock, parseBlock } from "../src/handshake/block.ts";
import { fingerprint } from "../src/handshake/fingerprint.ts";
import { divergenceFinding, unverifiedText } from "../src/handshake/finding.ts";
import { canonicalCwd, nativeCwd, styleCwd } from "../src/handshake/cwd.ts";
import { type Handshake, validateField } from "../src/handshake/fields.ts";
import { formatIssuedAt, issuedAtNow, parseDuration } from "../src/time.ts";

const enc = (s: string) => new TextEncoder().encode(s);

const SAMPLE: Handshake = {
  parent_head: "0123456789abcdef0123456789abcdef01234567",
  parent_branch: "main",
  parent_cwd: "/work/repo",
  parent_dirty_fingerprint: "ef71e55616b3",
  workspace_mode: "shared",
  handshake_issued_at: "2026-11-29T20:15:00.1234567Z",
};

const SAMPLE_BLOCK = `<!-- subagent-env-handshake v1 -->

parent_head: 0123456789abcdef0123456789abcdef01234567
parent_branch: main
parent_cwd: /work/repo
parent_dirty_fingerprint: ef71e55616b3
workspace_mode: shared
handshake_issued_at: 2026-11-29T20:15:00.1234567Z

<!-- /subagent-env-handshake -->
`;

Deno.test("fingerprint pins the three vectors of the contract", async () => {
  assertEquals(await fingerprint(enc("")), "e3b0c44298fc");
  assertEquals(await fingerprint(enc(" M a.txt\n?? new.txt\n")), "ef71e55616b3");
  assertEquals(await fingerprint(enc(" M a.txt\n?? new.txt")), "61cb79ae5fd6");
});

Deno.test("fingerprint removes carriage returns as tr -d does", async () => {
  assertEquals(await fingerprint(enc(" M a.txt\r\n?? new.txt\r\n")), "ef71e55616b3");
});

Deno.test("block is the seed's inline template byte for byte", () => {
  assertEquals(buildBlock(SAMPLE), SAMPLE_BLOCK);
});

Deno.test("parse reads the block back from anywhere in a prompt", () => {
  const r = parseBlock(`Task: fix the bug.\n\n${SAMPLE_BLOCK}\nMore text.`);
  assertEquals(r, { kind: "block", handshake: SAMPLE });
});

Deno.test("parse tolerates CRLF, a BOM, no blank lines, indentation and blanks around sentinels", () => {
  const compact = SAMPLE_BLOCK.replace(/\n\n/g, "\n").split("\n").map((l) =>
    l.startsWith("<!--") ? ` \t${l}  ` : `  \t${l}`
  ).join("\r\n");
  assertEquals(parseBlock(`\uFEFF${compact}`), { kind: "block", handshake: SAMPLE });
  const blanky = SAMPLE_BLOCK.replace(/\n/g, "\n\n");
  assertEquals(parseBlock(blanky), { kind: "block", handshake: SAMPLE });
});

Deno.test("parse takes the error path when meaning is at stake", () => {
  const cases: Record<string, string> = {
    "short SHA": SAMPLE_BLOCK.replace(SAMPLE.parent_head, "0123456"),
    "bad fingerprint": SAMPLE_BLOCK.replace("ef71e55616b3", "ef71e55616"),
    "duplicated": SAMPLE_BLOCK.replace(
      "parent_branch: main",
      "parent_branch: main\nparent_branch: main",
    ),
    "missing": SAMPLE_BLOCK.replace("parent_cwd: /work/repo\n", ""),
    "extra": SAMPLE_BLOCK.replace(
      "workspace_mode: shared",
      "workspace_mode: shared\nparent_user: ann",
    ),
    "renamed": SAMPLE_BLOCK.replace("parent_cwd:", "cwd:"),
    "relative cwd": SAMPLE_BLOCK.replace("/work/repo", "work/repo"),
    "bad mode": SAMPLE_BLOCK.replace("shared", "isolated"),
    "local time": SAMPLE_BLOCK.replace("1234567Z", "1234567+01:00"),
    "impossible date": SAMPLE_BLOCK.replace("2026-11-29", "2026-02-30"),
    "trailing space on a value": SAMPLE_BLOCK.replace("/work/repo", "/work/repo "),
    "trailing no-break space": SAMPLE_BLOCK.replace("/work/repo", "/work/repo\u00a0"),
    "leading ideographic space": SAMPLE_BLOCK.replace(": main", ": \u3000main"),
    "next-line control": SAMPLE_BLOCK.replace("/work/repo", "/work/re\u0085po"),
    "line separator": SAMPLE_BLOCK.replace("/work/repo", "/work/re\u2028po"),
    "proc self": SAMPLE_BLOCK.replace("/work/repo", "/proc/self/cwd"),
    "dev fd": SAMPLE_BLOCK.replace("/work/repo", "/dev/fd/0"),
    "first block broken, second fine": SAMPLE_BLOCK.replace("shared", "isolated") + SAMPLE_BLOCK,
    "no closing sentinel": SAMPLE_BLOCK.replace("<!-- /subagent-env-handshake -->", ""),
    "closing only": "text\n<!-- /subagent-env-handshake -->\n",
    "version 2": SAMPLE_BLOCK.replace(" v1 ", " v2 "),
  };
  for (const [name, text] of Object.entries(cases)) {
    assertEquals(parseBlock(text).kind, "error", name);
  }
});

Deno.test("parse reads the six fields in any order, and refuses one given twice, with the same value or another", () => {
  const lines = SAMPLE_BLOCK.split("\n");
  const fields = lines.slice(2, 8);
  const reversed = [...lines.slice(0, 2), ...fields.toReversed(), ...lines.slice(8)].join("\n");
  assertEquals(parseBlock(reversed), { kind: "block", handshake: SAMPLE });
  for (const again of ["parent_branch: main", "parent_branch: dev"]) {
    const twice = SAMPLE_BLOCK.replace(
      "workspace_mode: shared",
      `workspace_mode: shared\n${again}`,
    );
    assertEquals(parseBlock(twice), { kind: "error", reason: 'field "parent_branch" is repeated' });
  }
});

Deno.test("parse reports missing only when there is no block at all", () => {
  assertEquals(parseBlock("Please review src/a.ts"), { kind: "missing" });
  assertEquals(parseBlock(""), { kind: "missing" });
});

Deno.test("parse accepts a worktree mode so verify can route it to the error path", () => {
  const r = parseBlock(SAMPLE_BLOCK.replace("shared", "worktree"));
  assertEquals(r.kind === "block" && r.handshake.workspace_mode, "worktree");
});

const GOLDEN_FINDING = `## Finding: environment-divergence (halting)

**Expected (from parent handshake):**

- HEAD: 0123456789abcdef0123456789abcdef01234567
- branch: main
- CWD: /work/repo
- dirty fingerprint: ef71e55616b3

**Observed (live git verification):**

- HEAD: 89abcdef0123456789abcdef0123456789abcdef
- branch: feature/x
- CWD: /work/repo
- dirty fingerprint: e3b0c44298fc

**Diverged fields:** parent_head, parent_branch, parent_dirty_fingerprint

The subagent halted role work because its live environment does not match
the parent's dispatched handshake. No tree-grounded claims are emitted
on this dispatch. The parent session should reconcile the divergence
(e.g., commit pending edits, re-dispatch from the intended branch, or
explicitly acknowledge the mismatch) and re-dispatch.
`;

Deno.test("mismatch finding is the seed's template byte for byte (golden)", () => {
  const observed = {
    parent_head: "89abcdef0123456789abcdef0123456789abcdef",
    parent_branch: "feature/x",
    parent_cwd: "/work/repo",
    parent_dirty_fingerprint: "e3b0c44298fc",
  };
  const text = divergenceFinding(SAMPLE, observed, [
    "parent_dirty_fingerprint",
    "parent_head",
    "parent_branch",
  ]);
  assertEquals(text, GOLDEN_FINDING);
});

Deno.test("finding prints a value that looks like a placeholder as it is", () => {
  const odd = { ...SAMPLE, parent_branch: "{observed_head}" };
  assertIncludes(divergenceFinding(odd, odd, ["parent_branch"]), "- branch: {observed_head}\n");
});

Deno.test("unverified text carries the reason and the tagging instruction", () => {
  const text = unverifiedText("no handshake");
  assertEquals(text.split("\n")[0], "environment-unverified: no handshake");
  assertIncludes(text, "Tag every tree-grounded finding environment-unverified");
});

Deno.test("cwd forms of one Windows directory compare equal, others do not", () => {
  const forms = ["C:\\x", "C:/x", "/c/x", "/cygdrive/c/x", "c:\\X\\", "C:\\x\\\\"];
  for (const f of forms) assertEquals(canonicalCwd(f, "windows"), "c:/x", f);
  assertEquals(canonicalCwd("D:\\x", "windows") === canonicalCwd("C:\\x", "windows"), false);
  assertEquals(canonicalCwd("C:\\x\\y", "windows") === canonicalCwd("C:\\x", "windows"), false);
  assertEquals(canonicalCwd("\\\\server\\share\\x", "windows"), "//server/share/x");
  assertEquals(canonicalCwd("/c/x", "posix") === canonicalCwd("C:\\x", "posix"), false);
  assertEquals(canonicalCwd("/Repo/", "posix"), "/Repo");
  assertEquals(canonicalCwd("/Repo", "posix") === canonicalCwd("/repo", "posix"), false);
  assertEquals(canonicalCwd("/", "posix"), "/");
});

Deno.test("cwd styles render Git Bash and native spellings", () => {
  assertEquals(styleCwd("C:\\Users\\Ann\\repo", "posix"), "/c/Users/Ann/repo");
  assertEquals(styleCwd("C:\\", "posix"), "/c");
  assertEquals(nativeCwd("/cygdrive/d/src", "windows"), "D:/src");
  assertEquals(nativeCwd("/d", "windows"), "D:/");
});

Deno.test("issued_at has seven fractional digits and increases within a batch", () => {
  assertEquals(formatIssuedAt(0n), "1970-01-01T00:00:00.0000000Z");
  assertEquals(validateField("handshake_issued_at", "0050-06-01T00:00:00Z"), undefined);
  const a = issuedAtNow();
  const b = issuedAtNow();
  assertEquals(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/.test(a), true);
  assertEquals(a < b, true);
  assertEquals(parseDuration("90s"), 90000);
  assertEquals(parseDuration("-1s"), undefined);
});
