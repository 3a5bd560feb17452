/**
 * The path operations the binaries use (`src/_path.ts`) mean what `node:path`'s do: on
 * POSIX they are written out so that the binaries need not load Deno's Node layer, and
 * every path tether builds, compares or prints goes through them.
 *
 * @module
 */
import fc from "fast-check";
import { posix } from "node:path";
import { assertEquals } from "../src/_assert.ts";
import { basename, dirname, isAbsolute, join, resolve, rootOf } from "../src/_path.ts";

/** Paths made of the parts that carry meaning: separators, `.`, `..`, names, dots in names. */
const path = fc.array(fc.constantFrom("/", "//", ".", "..", "a", "b.c", ".d", "..e", "f g"), {
  maxLength: 8,
}).map((parts) => parts.join(""));
const paths = fc.array(path, { maxLength: 4 });
const runs = { numRuns: 2000 };

Deno.test({
  name: "join, resolve, dirname, basename, isAbsolute and the root mean what node:path's do",
  ignore: Deno.build.os === "windows", // there they are node:path's own
  fn() {
    fc.assert(fc.property(paths, (ps) => assertEquals(join(...ps), posix.join(...ps))), runs);
    fc.assert(fc.property(paths, (ps) => assertEquals(resolve(...ps), posix.resolve(...ps))), runs);
    fc.assert(
      fc.property(path, (p) => {
        assertEquals(dirname(p), posix.dirname(p), `dirname(${JSON.stringify(p)})`);
        assertEquals(basename(p), posix.basename(p), `basename(${JSON.stringify(p)})`);
        assertEquals(isAbsolute(p), posix.isAbsolute(p));
        assertEquals(rootOf(p), posix.parse(p).root);
      }),
      runs,
    );
    // The edges a generator may miss.
    for (
      const p of ["", "/", "//", "///", "//a", "a//b", "a/", "./", "..", "/..", "a/..", "a/../"]
    ) {
      assertEquals(
        [join(p), join(p, p), dirname(p), basename(p), resolve(p)],
        [posix.join(p), posix.join(p, p), posix.dirname(p), posix.basename(p), posix.resolve(p)],
        JSON.stringify(p),
      );
    }
    assertEquals(join(), posix.join());
    assertEquals(resolve(), posix.resolve());
  },
});
