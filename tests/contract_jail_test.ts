/** The path jail: lexical escapes and symlink escapes, on a real directory tree. */
import { join } from "../src/_path.ts";
import { assertEquals } from "../src/_assert.ts";
import { JailError, jailRelativePath, resolveInsideJail } from "../src/contract/jail.ts";
import { tempDir } from "./_helpers.ts";

async function refused(jail: string, path: string): Promise<string> {
  try {
    await resolveInsideJail(jail, path);
  } catch (error) {
    if (error instanceof JailError) return error.message;
    throw error;
  }
  return "allowed";
}

async function fixture(): Promise<{ jail: string; outside: string }> {
  const base = await tempDir("tether-jail-");
  const jail = join(base, "jail");
  const outside = join(base, "outside");
  await Deno.mkdir(join(jail, "src"), { recursive: true });
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "secret.txt"), "secret");
  await Deno.writeTextFile(join(jail, "src", "a.ts"), "a");
  return { jail, outside };
}

Deno.test("jail resolves plain paths and not-yet-existing files inside it", async () => {
  const { jail } = await fixture();
  assertEquals(await resolveInsideJail(jail, "src/a.ts"), join(jail, "src", "a.ts"));
  assertEquals(await resolveInsideJail(jail, "./src//new/b.ts"), join(jail, "src", "new", "b.ts"));
});

Deno.test("jail rejects .. escapes, absolute, Windows drive and UNC paths", async () => {
  const { jail } = await fixture();
  for (const path of ["../outside/secret.txt", "src/../../x", "src\\..\\..\\x"]) {
    assertEquals((await refused(jail, path)).startsWith("Path climbs out"), true, path);
  }
  assertEquals(await refused(jail, "/etc/passwd"), 'Path is absolute: "/etc/passwd"');
  assertEquals(
    await refused(jail, "C:\\Windows\\x"),
    'Path is a Windows drive path: "C:\\\\Windows\\\\x"',
  );
  assertEquals((await refused(jail, "c:relative")).startsWith("Path is a Windows drive"), true);
  assertEquals((await refused(jail, "\\\\server\\share\\x")).startsWith("Path is a UNC"), true);
  assertEquals((await refused(jail, "//server/share")).startsWith("Path is a UNC"), true);
  assertEquals(await refused(jail, ""), "Path is empty");
  assertEquals(await refused(jail, "."), 'Path names the jail itself: "."');
});

Deno.test("jail rejects a symlink inside it that points outside", async () => {
  const { jail, outside } = await fixture();
  await Deno.symlink(outside, join(jail, "escape"));
  assertEquals(
    await refused(jail, "escape/secret.txt"),
    'Path leaves the jail through a symlink: "escape/secret.txt"',
  );
  assertEquals(
    (await refused(jail, "escape/new-file.txt")).startsWith("Path leaves the jail"),
    true,
  );
});

Deno.test("jail rejects writing through a dangling symlink that points outside", async () => {
  const { jail, outside } = await fixture();
  await Deno.symlink(join(outside, "not-yet.txt"), join(jail, "trap.txt"));
  assertEquals(await refused(jail, "trap.txt"), 'Path goes through a dangling symlink: "trap.txt"');
});

Deno.test("jail allows a symlink that stays inside it", async () => {
  const { jail } = await fixture();
  await Deno.symlink(join(jail, "src"), join(jail, "alias"));
  assertEquals(await resolveInsideJail(jail, "alias/a.ts"), join(jail, "src", "a.ts"));
});

Deno.test("jailRelativePath normalises without touching the file system", () => {
  assertEquals(jailRelativePath("a\\b/./c"), "a/b/c");
});

Deno.test("jail refuses a path through a file or a symlink loop with its typed error", async () => {
  const { jail } = await fixture();
  assertEquals(
    await refused(jail, "src/a.ts/x"),
    'Path goes through something that is not a directory: "src/a.ts/x"',
  );
  await Deno.symlink("loop", join(jail, "loop"));
  assertEquals(
    (await refused(jail, "loop/x")).startsWith("Path goes through a symlink loop"),
    true,
  );
});
