import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DETECTION_BYTES, detectMediaType, isUtf8Text } from "./detect-media-type.ts";
import {
  FLAC,
  GIF,
  JPEG,
  M4A,
  MOV,
  MP3,
  MP3_WITH_ID3,
  MP4,
  OGG_OPUS,
  PDF,
  PNG,
  TEXT,
  WAV,
  WEBM,
  WEBP,
  ZIP,
} from "./test-support/fixtures.ts";

const ascii = (text: string, length = 64) => {
  const bytes = new Uint8Array(Math.max(length, text.length));
  for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
  return bytes;
};

/** The control characters that make content binary rather than text. */
const isControl = (character: string) => {
  const code = character.charCodeAt(0);
  return (code < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d, 0x1b].includes(code)) || code === 0x7f;
};

describe("detectMediaType", () => {
  const cases: [string, Uint8Array, string, string, string][] = [
    ["PNG", PNG, "image", "image/png", "png"],
    ["JPEG", JPEG, "image", "image/jpeg", "jpg"],
    ["GIF", GIF, "image", "image/gif", "gif"],
    ["WebP", WEBP, "image", "image/webp", "webp"],
    ["AVIF", ascii("\0\0\0\x1cftypavif"), "image", "image/avif", "avif"],
    ["HEIC", ascii("\0\0\0\x18ftypheic"), "image", "image/heic", "heic"],
    ["HEIF", ascii("\0\0\0\x18ftypmif1"), "image", "image/heif", "heif"],
    ["TIFF", ascii("II*\0"), "image", "image/tiff", "tiff"],
    ["BMP", ascii("BM\x36\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0"), "image", "image/bmp", "bmp"],
    ["MP3 frame", MP3, "audio", "audio/mpeg", "mp3"],
    ["MP3 with ID3", MP3_WITH_ID3, "audio", "audio/mpeg", "mp3"],
    ["WAV", WAV, "audio", "audio/wav", "wav"],
    ["FLAC", FLAC, "audio", "audio/flac", "flac"],
    ["Ogg Opus", OGG_OPUS, "audio", "audio/ogg", "opus"],
    ["Ogg Vorbis", ascii(`OggS${"\0".repeat(24)}\x01vorbis`), "audio", "audio/ogg", "ogg"],
    ["M4A", M4A, "audio", "audio/mp4", "m4a"],
    ["AAC (ADTS)", ascii("\xff\xf1\x50\x80"), "audio", "audio/aac", "aac"],
    ["AIFF", ascii("FORM\0\0\0\0AIFF"), "audio", "audio/aiff", "aiff"],
    ["AMR", ascii("#!AMR\n"), "audio", "audio/amr", "amr"],
    ["MP4", MP4, "video", "video/mp4", "mp4"],
    ["QuickTime", MOV, "video", "video/quicktime", "mov"],
    ["3GP", ascii("\0\0\0\x14ftyp3gp5"), "video", "video/3gpp", "3gp"],
    ["WebM", WEBM, "video", "video/webm", "webm"],
    [
      "Matroska",
      ascii("\x1a\x45\xdf\xa3\x93\x42\x82\x88matroska"),
      "video",
      "video/x-matroska",
      "mkv",
    ],
    ["AVI", ascii("RIFF\0\0\0\0AVI LIST"), "video", "video/x-msvideo", "avi"],
    ["MPEG-PS", ascii("\0\0\x01\xba"), "video", "video/mpeg", "mpg"],
    ["FLV", ascii("FLV\x01\x05"), "video", "video/x-flv", "flv"],
    ["Ogg Theora", ascii(`OggS${"\0".repeat(24)}\x80theora`), "video", "video/ogg", "ogv"],
    ["PDF", PDF, "file", "application/pdf", "pdf"],
    ["UTF-8 text", TEXT, "file", "text/plain", "txt"],
  ];
  for (const [name, bytes, kind, mediaType, extension] of cases) {
    it(`detects ${name} as ${mediaType}`, () => {
      expect(detectMediaType(bytes)).toEqual({ kind, mediaType, extension });
    });
  }

  it("refuses archives, executables, binary data and empty files", () => {
    for (const bytes of [
      ZIP,
      ascii("\x1f\x8b\x08\0"),
      ascii("\x7fELF\x02\x01\x01"),
      new Uint8Array([0, 1, 2, 3, 4, 5]),
      new Uint8Array(),
      ascii("BM"), // "BM" alone is not enough for a BMP
    ]) {
      expect(detectMediaType(bytes)).toBeUndefined();
    }
  });

  it("looks at the content, whatever the first bytes of a text claim to be", () => {
    expect(detectMediaType(new TextEncoder().encode("RIFF is a container format."))).toEqual({
      kind: "file",
      mediaType: "text/plain",
      extension: "txt",
    });
  });

  it("accepts a text prefix cut inside a multi-byte character, but not a whole file cut so", () => {
    const text = new TextEncoder().encode(`${"a".repeat(DETECTION_BYTES - 1)}é`);
    expect(detectMediaType(text.subarray(0, DETECTION_BYTES), false)?.mediaType).toBe("text/plain");
    expect(detectMediaType(text.subarray(0, DETECTION_BYTES), true)).toBeUndefined();
  });

  it("never throws, and text without control characters is always text/plain (property)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const found = detectMediaType(bytes);
        if (found !== undefined) expect(["image", "audio", "video", "file"]).toContain(found.kind);
      }),
      { numRuns: 2_000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 300 }), (text) => {
        fc.pre(![...text].some(isControl));
        fc.pre(!/^(RIFF|ID3|GIF8|%PDF-|FORM|OggS|fLaC|#!AMR|FLV|BM|II\*|MM\0)/.test(text));
        fc.pre(text.length < 8 || text.slice(4, 8) !== "ftyp");
        expect(detectMediaType(new TextEncoder().encode(text))?.mediaType).toBe("text/plain");
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("isUtf8Text", () => {
  it("refuses invalid UTF-8 and control characters, allows tabs, line breaks and escapes", () => {
    expect(isUtf8Text(new Uint8Array([0xc3, 0x28]), true)).toBe(false);
    expect(isUtf8Text(new TextEncoder().encode("a\u0000b"), true)).toBe(false);
    expect(isUtf8Text(new TextEncoder().encode("a\u007fb"), true)).toBe(false);
    expect(isUtf8Text(new TextEncoder().encode("a\tb\r\nc\fd\u001b[31me"), true)).toBe(true);
  });
});
