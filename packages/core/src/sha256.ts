import { encodeUtf8 } from "./utf8.ts";

/** Hex SHA-256 of the UTF-8 bytes of `text`, with the runtime's Web Crypto. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encodeUtf8(text)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
