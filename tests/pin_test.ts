/**
 * The Deno version is pinned in one place (deno.json `x-deno-version`), and the README's
 * set-up commands, CI and the running Deno agree with it.
 */
import { join } from "../src/_path.ts";
import { assertEquals, assertIncludes } from "../src/_assert.ts";
import { ROOT } from "./_helpers.ts";

const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
const pinned: string = config["x-deno-version"];

Deno.test("the README opens with the two set-up commands on the pinned Deno", async () => {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const head = readme.split("\n").slice(0, 8).join("\n");
  assertIncludes(head, `npx -y deno@${pinned} task demo`);
  assertIncludes(head, `npx -y deno@${pinned} task test`);
});

Deno.test(".ci/run runs the README's test command on the pinned Deno", async () => {
  assertIncludes(
    await Deno.readTextFile(join(ROOT, ".ci/run")),
    `npx -y deno@${pinned} task test`,
  );
});

Deno.test("the suite runs on the pinned Deno", () => {
  assertEquals(Deno.version.deno, pinned);
});
