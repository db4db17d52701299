import { describe, expect, it } from "vitest";
import { escapeXmlAttribute, escapeXmlText, sanitizeXmlText } from "./xml-text.ts";

describe("sanitizeXmlText", () => {
  it("drops the C0 controls XML 1.0 forbids and keeps tab, LF and the rest", () => {
    let controls = "";
    for (let code = 0; code < 0x20; code++) controls += String.fromCharCode(code);
    expect(sanitizeXmlText(`a${controls}b`)).toBe("a\t\n\nb");
  });

  it("drops U+FFFE, U+FFFF and lone surrogates but keeps surrogate pairs", () => {
    expect(sanitizeXmlText("a\uFFFEb\uFFFFc\uD800d\uDC00e\uD83D\uDE00f")).toBe("abcde\u{1F600}f");
    expect(sanitizeXmlText("\uDC00\uD800")).toBe("");
    expect(sanitizeXmlText("end\uD83D")).toBe("end");
  });

  it("normalises CR LF and lone CR to LF, as XML parsers do", () => {
    expect(sanitizeXmlText("a\r\nb\rc\n\r\nd")).toBe("a\nb\nc\n\nd");
  });

  it("keeps characters XML 1.0 allows, including DEL, C1 controls and noncharacters below U+FFFE", () => {
    const allowed = "\u007F\u0085\u009F\uFDD0\uFFFD\u{10FFFF}é漢";
    expect(sanitizeXmlText(allowed)).toBe(allowed);
  });

  it("returns the same string when there is nothing to change", () => {
    const text = "plain text";
    expect(sanitizeXmlText(text)).toBe(text);
  });
});

describe("escapeXmlText", () => {
  it("escapes &, < and > and leaves quotes literal", () => {
    expect(escapeXmlText(`a & b <c> "d" 'e' ]]>`)).toBe(`a &amp; b &lt;c&gt; "d" 'e' ]]&gt;`);
  });

  it("keeps existing entity-like text as text", () => {
    expect(escapeXmlText("&amp; &#13;")).toBe("&amp;amp; &amp;#13;");
  });
});

describe("escapeXmlAttribute", () => {
  it("escapes &, <, >, both quotes, tab and LF", () => {
    expect(escapeXmlAttribute(`a&b<c>d"e'f\tg\nh`)).toBe(
      "a&amp;b&lt;c&gt;d&quot;e&apos;f&#9;g&#10;h",
    );
  });
});
