/**
 * Properties of the block format, over generated handshakes: what handshake builds, verify
 * reads back exactly; whatever layout the seed's emitters use, the meaning is the same; and
 * a prompt carrying one block plus any text around it yields that block.
 */
import fc from "fast-check";
import { assertEquals } from "../src/_assert.ts";
import { buildBlock, parseBlock } from "../src/handshake/block.ts";
import { type Handshake, namesWhoeverAsks, validateField } from "../src/handshake/fields.ts";

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => !s.startsWith("."));
// fc.record builds null-prototype objects; the parser returns plain ones.
const handshake: fc.Arbitrary<Handshake> = fc.record({
  parent_head: fc.oneof(hex(40), hex(64)),
  parent_branch: fc.oneof(
    fc.constant("HEAD"),
    fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/")),
  ),
  parent_cwd: fc.oneof(
    fc.array(fc.stringMatching(/^[ -.0-~é日]{1,10}$/), { maxLength: 5 })
      .map((s) => `/${s.join("/")}`)
      .filter((p) => p.trim() === p && !namesWhoeverAsks(p)),
    fc.constantFrom("C:\\Users\\Ann\\repo", "/c/Users/Ann/repo", "D:/src"),
  ),
  parent_dirty_fingerprint: hex(12),
  workspace_mode: fc.constantFrom("shared" as const, "worktree" as const),
  handshake_issued_at: fc.date({
    min: new Date("2000-01-01"),
    max: new Date("2100-01-01"),
    noInvalidDate: true,
  })
    .map((d) => d.toISOString().replace("Z", "0000Z")),
}).map((h) => ({ ...h }));

Deno.test("property: every valid handshake round-trips through its block", () => {
  fc.assert(
    fc.property(handshake, (h) => {
      for (const [name, value] of Object.entries(h)) {
        assertEquals(validateField(name as keyof Handshake, value), undefined);
      }
      assertEquals(parseBlock(buildBlock(h)), { kind: "block", handshake: h });
    }),
    { numRuns: 300 },
  );
});

Deno.test("property: CRLF, BOM, indentation, blanks around sentinels and blank-line layout never change the meaning", () => {
  fc.assert(
    fc.property(
      handshake,
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom("", " ", "\t"),
      (h, crlf, compact, pad) => {
        let text = buildBlock(h);
        if (compact) text = text.replace(/\n\n/g, "\n");
        text = text.split("\n").map((l) =>
          l.startsWith("<!--") ? `${pad}${l}${pad}` : l ? `${pad}${l}` : pad
        ).join("\n");
        if (crlf) text = `\uFEFF${text.replace(/\n/g, "\r\n")}`;
        assertEquals(parseBlock(text), { kind: "block", handshake: h });
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("property: a value with trailing white space is never trimmed into another value", () => {
  fc.assert(
    fc.property(
      handshake,
      fc.integer({ min: 0, max: 5 }),
      fc.constantFrom(" ", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff"),
      (h, field, blank) => {
        const lines = buildBlock(h).split("\n");
        lines[2 + field] += blank;
        assertEquals(parseBlock(lines.join("\n")).kind, "error");
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("property: the first block is the handshake; any later block is ignored and counted", () => {
  fc.assert(
    fc.property(handshake, handshake, (first, later) => {
      const text = `${buildBlock(first)}\nQuoted:\n${buildBlock(later)}`;
      assertEquals(parseBlock(text), { kind: "block", handshake: first, ignored: 1 });
    }),
    { numRuns: 100 },
  );
});

Deno.test("property: one block amid arbitrary prose is found; dropping any field line is an error", () => {
  const prose = fc.string({ maxLength: 80 }).filter((s) => !s.includes("subagent-env-handshake"));
  fc.assert(
    fc.property(
      handshake,
      prose,
      prose,
      fc.integer({ min: 0, max: 5 }),
      (h, before, after, drop) => {
        const block = buildBlock(h);
        assertEquals(parseBlock(`${before}\n${block}\n${after}`), { kind: "block", handshake: h });
        const lines = block.split("\n");
        lines.splice(2 + drop, 1);
        assertEquals(parseBlock(lines.join("\n")).kind, "error");
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("property: the fields in any order mean the same; a field given twice is an error", () => {
  fc.assert(
    fc.property(
      handshake,
      fc.shuffledSubarray([0, 1, 2, 3, 4, 5], { minLength: 6, maxLength: 6 }),
      fc.integer({ min: 0, max: 5 }),
      (h, order, twice) => {
        const lines = buildBlock(h).split("\n");
        const fields = lines.slice(2, 8);
        const shuffled = order.map((i) => fields[i]!);
        const text = (body: string[]) => [...lines.slice(0, 2), ...body, ...lines.slice(8)];
        assertEquals(parseBlock(text(shuffled).join("\n")), { kind: "block", handshake: h });
        const doubled = [...shuffled, fields[twice]!];
        assertEquals(parseBlock(text(doubled).join("\n")).kind, "error");
      },
    ),
    { numRuns: 200 },
  );
});
