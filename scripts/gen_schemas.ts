/**
 * `deno task schemas`: write one JSON Schema file per contract into `schemas/`, generated
 * from the zod schemas with `z.toJSONSchema`. A test fails when the files are stale.
 *
 * @module
 */
import { z } from "../src/_zod.ts";
import { CONTRACTS } from "../src/contract/schemas.ts";

/**
 * The JSON Schema text of every contract, by file name, exactly as written to disk.
 *
 * @returns File name (`SubagentResult.json`) → file content.
 */
export function schemaFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [name, schema] of Object.entries(CONTRACTS)) {
    const { $schema, ...rest } = z.toJSONSchema(schema, { io: "input" });
    const json = { $schema, title: name, ...rest };
    files[`${name}.json`] = JSON.stringify(json, null, 2) + "\n";
  }
  return files;
}

if (import.meta.main) {
  const dir = new URL("../schemas/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(schemaFiles())) {
    await Deno.writeTextFile(new URL(name, dir), text);
    console.log(`wrote schemas/${name}`);
  }
}
