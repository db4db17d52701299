// A request body is read as UTF-8 text that must decode exactly: a decoder that replaced bytes
// that are not UTF-8 with U+FFFD would store other text than was sent.
import { DeliveryError } from "../delivery/delivery-error.ts";

// A leading byte order mark is dropped, as a JSON parser may (RFC 8259), not part of any string.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Whether `bytes` decode as UTF-8; in `stream` mode an incomplete sequence at the end may. */
function decodes(bytes: Uint8Array, stream: boolean): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
}

/** The offset where the first sequence that is not UTF-8 starts (only called when one does). */
function firstInvalidSequence(bytes: Uint8Array): number {
  // Every prefix that ends before the first bad byte decodes in streaming mode, no longer one
  // does: search for the longest.
  let valid = 0;
  let invalid = bytes.length;
  while (invalid - valid > 1) {
    const middle = Math.floor((valid + invalid) / 2);
    if (decodes(bytes.subarray(0, middle), true)) valid = middle;
    else invalid = middle;
  }
  if (decodes(bytes.subarray(0, valid), false)) return valid;
  // The prefix ends inside a sequence: it starts at the last lead byte (not 10xxxxxx).
  let start = valid - 1;
  while (start > 0 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  return start;
}

/** The body's text, or `INVALID_REQUEST` when its bytes are not UTF-8 (nothing is replaced). */
export function decodeUtf8Body(body: ArrayBuffer): string {
  const bytes = new Uint8Array(body);
  try {
    return decoder.decode(bytes);
  } catch {
    const offset = firstInvalidSequence(bytes);
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `The request body is not UTF-8 text from byte ${offset} on. Encode the body as UTF-8.`,
      issues: [
        {
          path: "",
          message: `The bytes from offset ${offset} on are not UTF-8: send the JSON encoded as UTF-8 (no other encoding, no encoded surrogates).`,
        },
      ],
    });
  }
}
