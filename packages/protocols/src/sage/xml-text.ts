// Characters XML 1.0 does not allow anywhere in a document (the `Char` production): C0 controls
// other than tab, LF and CR; U+FFFE and U+FFFF; and surrogates that are not part of a pair (with
// the `u` flag a well-formed pair is one astral code point, so only lone halves match).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/gu;
// The same without the `u` flag (any surrogate, paired or not): a faster first test.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const MAYBE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/;
const CARRIAGE_RETURN = /\r\n?/g;
const TEXT_SPECIAL = /[&<>]/;
const TEXT_SPECIAL_ALL = /[&<>]/g;
const ATTRIBUTE_SPECIAL = /[&<>"'\t\n]/;
const ATTRIBUTE_SPECIAL_ALL = /[&<>"'\t\n]/g;

const REFERENCES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
};
const reference = (character: string) => REFERENCES[character] ?? character;

/**
 * The text an XML 1.0 parser will hand back for `text`: characters XML 1.0 forbids (C0 controls
 * except tab, LF and CR; U+FFFE; U+FFFF; lone surrogates) are dropped, and line ends (CR LF, lone
 * CR) become LF, as every XML parser normalises them. Rendering applies this to every string, so
 * `parseSubagentContext(renderSubagentContext(doc))` returns the sanitized document.
 *
 * For example, `"a\u0000b\r\nc\uD800"` becomes `"ab\nc"`.
 */
export function sanitizeXmlText(text: string): string {
  let result = text;
  if (MAYBE_FORBIDDEN.test(result)) result = result.replace(FORBIDDEN, "");
  if (result.includes("\r")) result = result.replace(CARRIAGE_RETURN, "\n");
  return result;
}

/**
 * Escapes sanitized text for element content: `&`, `<` and `>` become references (so `]]>` can
 * never appear); quotes stay literal, which is legal in content and cheaper for a model to read.
 * Call {@link sanitizeXmlText} first; `escapeXmlText` does not drop forbidden characters.
 */
export function escapeXmlText(text: string): string {
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIAL_ALL, reference) : text;
}

/**
 * Escapes sanitized text for a double- or single-quoted attribute value: `&`, `<`, `>`, `"` and
 * `'` become entity references, and tab and LF become character references so that attribute-value
 * normalisation (which turns literal whitespace into spaces) leaves them intact.
 * Call {@link sanitizeXmlText} first.
 */
export function escapeXmlAttribute(text: string): string {
  return ATTRIBUTE_SPECIAL.test(text) ? text.replace(ATTRIBUTE_SPECIAL_ALL, reference) : text;
}
