import { encodeUtf8 } from "./utf8.ts";

/** Hex SHA-256 of `data` (a string is hashed as its UTF-8 bytes), with the runtime's Web Crypto. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? encodeUtf8(data) : data;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
