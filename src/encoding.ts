/**
 * Prompt bytes as text, and text back in a prompt's encoding. A prompt may come as UTF-8
 * (with or without a BOM) or, as Windows PowerShell writes it (`>`, `Out-File`, a pipe
 * with `$OutputEncoding` set to Unicode), as UTF-16 with or without a BOM. Bytes that
 * are none of these are kept as they are by `handshake wrap` and reported by `verify`.
 *
 * @module
 */

/** The encodings a prompt is read in. */
export type PromptEncoding = "utf-8" | "utf-16le" | "utf-16be";

/** A prompt's bytes, split into BOM and body, and decoded. */
export interface DecodedPrompt {
  /** The encoding the bytes were read in. */
  encoding: PromptEncoding;
  /** The byte order mark found at the start (empty when there was none). */
  bom: Uint8Array;
  /** The bytes after the BOM, untouched. */
  body: Uint8Array;
  /** The body as text; a sequence that does not decode becomes U+FFFD. */
  text: string;
  /** Whether every byte of the body decoded. */
  valid: boolean;
}

const BOMS: readonly [PromptEncoding, readonly number[]][] = [
  ["utf-8", [0xef, 0xbb, 0xbf]],
  ["utf-16le", [0xff, 0xfe]],
  ["utf-16be", [0xfe, 0xff]],
];

/**
 * Guess the encoding of bytes without a BOM: text never holds a NUL, so a NUL in the
 * first two bytes beside a non-NUL means UTF-16 (low byte first or high byte first).
 */
function sniff(bytes: Uint8Array): PromptEncoding {
  if (bytes.length >= 2) {
    if (bytes[0] !== 0 && bytes[1] === 0) return "utf-16le";
    if (bytes[0] === 0 && bytes[1] !== 0) return "utf-16be";
  }
  return "utf-8";
}

/**
 * Read prompt bytes: a BOM decides the encoding; without one, UTF-16 is recognised by
 * its NUL bytes and everything else is read as UTF-8.
 *
 * @example UTF-16LE with a BOM, plain UTF-8, and Latin-1 (not UTF-8)
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const le = decodePrompt(new Uint8Array([0xff, 0xfe, 0x68, 0, 0x69, 0]));
 * assertEquals([le.encoding, le.text, le.valid], ["utf-16le", "hi", true]);
 * assertEquals(decodePrompt(new TextEncoder().encode("caf\u00e9")).text, "caf\u00e9");
 * const latin1 = decodePrompt(new Uint8Array([0x63, 0xe9]));
 * assertEquals([latin1.encoding, latin1.valid], ["utf-8", false]);
 * ```
 * @param bytes The prompt as it came.
 * @returns The encoding, the BOM, the body and its text.
 */
export function decodePrompt(bytes: Uint8Array): DecodedPrompt {
  const found = BOMS.find(([, bom]) => bom.every((b, i) => bytes[i] === b));
  const encoding = found?.[0] ?? sniff(bytes);
  const bomLength = found?.[1].length ?? 0;
  const body = bytes.subarray(bomLength);
  let valid = true;
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    valid = false;
    text = new TextDecoder(encoding, { ignoreBOM: true }).decode(body);
  }
  return { encoding, bom: bytes.subarray(0, bomLength), body, text, valid };
}

/**
 * Encode text in a prompt encoding (no BOM).
 *
 * @example UTF-16BE
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals([...encodeText("h\u00e9", "utf-16be")], [0, 0x68, 0, 0xe9]);
 * ```
 * @param text What to encode.
 * @param encoding The prompt's encoding.
 * @returns The bytes.
 */
export function encodeText(text: string, encoding: PromptEncoding): Uint8Array {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  const out = new Uint8Array(text.length * 2);
  const little = encoding === "utf-16le";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    out[2 * i] = little ? unit & 0xff : unit >> 8;
    out[2 * i + 1] = little ? unit >> 8 : unit & 0xff;
  }
  return out;
}

/**
 * Join byte arrays.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals([...concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])])], [1, 2, 3]);
 * ```
 * @param parts The pieces, in order.
 * @returns One array.
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Whether two byte arrays hold the same bytes.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * assertEquals(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2])), true);
 * assertEquals(sameBytes(new Uint8Array([1]), new Uint8Array([1, 0])), false);
 * ```
 * @param a One array.
 * @param b The other.
 * @returns True when their lengths and every byte agree.
 */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; // a plain loop: megabytes are compared
  return true;
}

/**
 * The prompt's bytes behind each head, the wrapped prompts joined by a newline. The
 * prompt is never re-encoded: its body goes out byte for byte; the heads are written in
 * its encoding, and its byte order mark, if any, moves to the very front so the output
 * stays one valid file (UTF-16 stays UTF-16).
 *
 * @example A Latin-1 prompt stays byte-identical behind the block
 * ```ts
 * import { assertEquals } from "./_assert.ts";
 * const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
 * const out = prependTo(decodePrompt(latin1), ["B\n"]);
 * assertEquals([...out], [0x42, 0x0a, 0x63, 0x61, 0x66, 0xe9]);
 * ```
 * @param prompt The prompt as read.
 * @param heads The text to put in front of it, one per wrapped prompt.
 * @returns The bytes to print.
 */
export function prependTo(prompt: DecodedPrompt, heads: readonly string[]): Uint8Array {
  const parts: Uint8Array[] = [prompt.bom];
  heads.forEach((head, i) => {
    if (i > 0) parts.push(encodeText("\n", prompt.encoding));
    parts.push(encodeText(head, prompt.encoding), prompt.body);
  });
  return concatBytes(parts);
}
