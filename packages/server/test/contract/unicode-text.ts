// What the text suites send and expect: strings with lone surrogates and the refusals they get,
// bodies with bytes that are not UTF-8, and well-formed text a service must keep exactly.

export const advice = "send well-formed Unicode text (a surrogate only as half of a pair)";

/** The issue of a string with a lone surrogate `unit` at `index`. */
export const loneString = (path: string, unit: string, index: number) => ({
  path,
  message: `The string contains a lone surrogate (U+${unit}) at index ${index}: ${advice}.`,
});

/** The refusal of a request body (or tool arguments) that holds such strings. */
export const refusal = (where: string, issues: { path: string; message: string }[]) => ({
  error: `The ${where} holds text that is not well-formed Unicode. Fix the issues listed.`,
  code: "INVALID_REQUEST",
  issues,
});

/** A JSON body as bytes, with `bytes` where the text has `@`. */
export function bodyWithBytes(
  value: unknown,
  bytes: number[],
): { raw: Uint8Array<ArrayBuffer>; offset: number } {
  const [before = "", after = ""] = JSON.stringify(value).split("@");
  const encoder = new TextEncoder();
  const head = encoder.encode(before);
  return {
    raw: new Uint8Array([...head, ...bytes, ...encoder.encode(after)]),
    offset: head.length,
  };
}

/** Well-formed text a service must keep exactly. */
export const keptTexts = [
  "emoji 😀, a flag 🇺🇳 and a ZWJ sequence 👩‍💻",
  "combining marks: e\u0301 is not é; jamo \u1100\u1161",
  "U+FFFD sent on purpose: \ufffd",
  "NUL \u0000 and controls \u0001\u001f\u007f\u0085, tab\t, CR\r, LF\n",
  "non-BMP CJK 𠀋𪚲 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "a BOM mid-text \ufeff, noncharacters \ufffe\uffff and U+10FFFF \u{10ffff}",
];
export const kept = keptTexts.join(" | ");

/** The refusal of a body whose bytes stop being UTF-8 at `offset`. */
export const notUtf8Body = (offset: number) => ({
  error: `The request body is not UTF-8 text from byte ${offset} on. Encode the body as UTF-8.`,
  code: "INVALID_REQUEST",
  issues: [
    {
      path: "",
      message: `The bytes from offset ${offset} on are not UTF-8: send the JSON encoded as UTF-8 (no other encoding, no encoded surrogates).`,
    },
  ],
});
