/** The text of a UTF-8 byte prefix, and whether any bytes were invalid. */
export interface DecodedText {
  text: string;
  /** True when invalid UTF-8 was replaced with U+FFFD. */
  replaced: boolean;
}

/**
 * Decodes UTF-8 bytes, stripping a leading byte order mark. With `complete: false` the bytes are a
 * prefix of a longer file, so a character cut at the end of the buffer is left out instead of
 * becoming U+FFFD.
 */
export function decodeUtf8(bytes: Uint8Array, complete: boolean): DecodedText {
  try {
    return {
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete }),
      replaced: false,
    };
  } catch {
    return { text: new TextDecoder("utf-8").decode(bytes, { stream: !complete }), replaced: true };
  }
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export function encodeUtf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}
