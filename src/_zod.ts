/**
 * zod, behind one local module. The specifier is a full `npm:` one (not the bare `zod` of
 * an import map) so that a project importing tether's `mod.ts` by path or URL needs no
 * import map of its own. deno.json maps `zod` to the same version, for scripts and tests.
 *
 * @module
 */
export { z } from "npm:zod@4.1.12";
