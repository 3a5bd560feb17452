/**
 * The binaries' argument parser (`src/_argv.ts`) means what `node:util`'s `parseArgs` does
 * in strict mode: the same values, positionals and option tokens, and for anything it
 * refuses the same message, from which each binary's usage error is made. It is written out
 * so that no binary loads Deno's Node layer to read its command line.
 *
 * @module
 */
import fc from "fast-check";
import { parseArgs } from "node:util";
import { assertEquals } from "../src/_assert.ts";
import { type ArgOption, parseStrict } from "../src/_argv.ts";

/** An option table with every shape the binaries use: string, boolean, multiple, short. */
const OPTIONS: Record<string, ArgOption> = {
  to: { type: "string", multiple: true },
  worktree: { type: "string" },
  json: { type: "boolean" },
  flag: { type: "boolean", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
  file: { type: "string", short: "f" },
};

/** What either parser answers: its result, or the message it refused with. */
function answer(parse: () => unknown): unknown {
  try {
    return { ok: JSON.parse(JSON.stringify(parse())) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  }
}

function node(args: string[]) {
  const { values, positionals, tokens } = parseArgs({
    args,
    options: OPTIONS,
    strict: true,
    allowPositionals: true,
    tokens: true,
  });
  const options = tokens.filter((t) => t.kind === "option")
    .map((t) => ({ kind: t.kind, name: t.name, value: t.value }));
  return { values: { ...values }, positionals, tokens: options };
}

function ours(args: string[]) {
  const { values, positionals, tokens } = parseStrict(args, OPTIONS);
  return { values: { ...values }, positionals, tokens };
}

/** Arguments made of the pieces that carry meaning to a parser. */
const arg = fc.constantFrom(
  "--",
  "-",
  "--to",
  "--to=W1",
  "--to=",
  "--to=-x",
  "--worktree",
  "--worktree=a=b",
  "--json",
  "--json=yes",
  "--flag",
  "--help",
  "-h",
  "-V",
  "-hV",
  "-Vh",
  "-f",
  "-fname",
  "-hfname",
  "-hx",
  "-h=1",
  "-V-",
  "-f=x",
  "--to=--x",
  "-x",
  "--bogus",
  "--bogus=1",
  "---x",
  "--=x",
  "W1",
  "a b",
  "-1",
  "--__proto__",
);
const argv = fc.array(arg, { maxLength: 6 });

Deno.test("the binaries' argument parser answers what node:util's parseArgs answers", () => {
  fc.assert(
    fc.property(argv, (args) => {
      assertEquals(answer(() => ours(args)), answer(() => node(args)), JSON.stringify(args));
    }),
    { numRuns: 3000 },
  );
  // The cases the binaries' messages are made from, each at least once.
  for (
    const args of [
      ["--bogus"],
      ["--to"],
      ["--json=1"],
      ["--to", "-x"],
      ["-x"],
      ["-f", "-x"],
      ["--to", "-"],
      ["a", "--", "--to", "-h"],
    ]
  ) assertEquals(answer(() => ours(args)), answer(() => node(args)), JSON.stringify(args));
});
