/**
 * Files compared with what a checkout of the spawn HEAD's blob writes: read the blobs
 * (one `git cat-file --batch` a question, each blob checked against its id) and ask
 * whether a file's bytes are one of the blob's checkout forms ({@linkcode checkoutIds},
 * {@linkcode checkoutForms}), or whether `text=auto` wrote the blob as it is.
 *
 * @module
 */
import type { PathContent } from "../context/content.ts";
import { REGULAR_MODES } from "../context/porcelain.ts";
import { autoConverts, type CheckoutForms, checkoutForms, checkoutIds } from "./ident.ts";
import { readObjects } from "./objects.ts";
import type { LiveRepo } from "./repo.ts";
import type { TreePair } from "./trees.ts";

/**
 * For paths whose bytes differ from the spawn HEAD's blob: when they are what a checkout of
 * that blob writes under the conversions `forms` allows ({@linkcode checkoutIds}), record
 * the blob as their filtered id, which proves them unchanged.
 *
 * @param repo The live repository.
 * @param now What the paths hold now; a proven file's `filtered` is set.
 * @param paths The paths to try.
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @param forms The conversions a checkout of each path may have made.
 */
export async function proveCheckouts(
  repo: LiveRepo,
  now: Map<string, PathContent>,
  paths: readonly string[],
  trees: TreePair,
  forms: (path: string) => CheckoutForms,
): Promise<void> {
  const wanted = paths.filter((p) => {
    const content = now.get(p);
    const leaf = trees.before.get(p);
    const { ident, crlf } = forms(p);
    return (ident || crlf) && content?.kind === "file" && leaf !== undefined &&
      REGULAR_MODES.has(leaf.mode) && content.raw !== leaf.oid && content.filtered !== leaf.oid;
  });
  if (wanted.length === 0) return;
  const blobs = await readObjects(
    repo.top,
    wanted.map((p) => trees.before.get(p)!.oid),
    repo.format,
  );
  for (const path of wanted) {
    const oid = trees.before.get(path)!.oid;
    const blob = blobs.get(oid);
    const content = now.get(path);
    if (blob?.kind !== "ok" || blob.type !== "blob" || content?.kind !== "file") continue;
    if ((await checkoutIds(blob.content, oid, repo.format, forms(path))).includes(content.raw)) {
      content.filtered = oid;
    }
  }
}

/**
 * The paths among `paths` whose bytes are what some checkout of the spawn HEAD's blob
 * writes (`checkoutForms`: CRLF, `$Id$` expanded, UTF-16).
 *
 * @param repo The live repository.
 * @param now What the paths hold now.
 * @param paths Paths with a leaf in the spawn HEAD.
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @returns Those paths.
 */
export async function checkoutLike(
  repo: LiveRepo,
  now: Map<string, PathContent>,
  paths: readonly string[],
  trees: TreePair,
): Promise<string[]> {
  if (paths.length === 0) return [];
  const blobs = await readObjects(
    repo.top,
    paths.map((p) => trees.before.get(p)!.oid),
    repo.format,
  );
  const out: string[] = [];
  for (const path of paths) {
    const oid = trees.before.get(path)!.oid;
    const blob = blobs.get(oid);
    const content = now.get(path);
    if (blob?.kind !== "ok" || blob.type !== "blob" || content?.kind !== "file") continue;
    if ((await checkoutForms(blob.content, oid, repo.format)).includes(content.raw)) out.push(path);
  }
  return out;
}

/**
 * The paths among `paths` whose spawn HEAD blob git takes for binary, so that a `text=auto`
 * checkout wrote it as it is ({@linkcode autoConverts}): their raw bytes tell.
 *
 * @param repo The live repository.
 * @param paths Paths with a leaf in the spawn HEAD.
 * @param trees The spawn HEAD's and the live HEAD's trees compared.
 * @returns Those paths.
 */
export async function writtenAsTheBlob(
  repo: LiveRepo,
  paths: readonly string[],
  trees: TreePair,
): Promise<Set<string>> {
  const binaryBlobs = paths.length === 0
    ? new Map()
    : await readObjects(repo.top, paths.map((p) => trees.before.get(p)!.oid), repo.format);
  return new Set(paths.filter((p) => {
    const blob = binaryBlobs.get(trees.before.get(p)!.oid);
    return blob?.kind === "ok" && blob.type === "blob" && !autoConverts(blob.content);
  }));
}
