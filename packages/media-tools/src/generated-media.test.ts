// What the generate tools do with what a provider returns: the saved media type and extension come
// from the bytes, and bytes that are not media of the requested kind — nothing, an HTML error page,
// JSON, text, another kind of media — fail with PROVIDER_ERROR and write nothing.
import type { Tool } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GeneratedKind, identifyGeneratedMedia } from "./generated-media.ts";
import {
  call,
  FLAC,
  GIF,
  imageModel,
  JPEG,
  M4A,
  MOV,
  MP3,
  MP4,
  OGG_OPUS,
  PDF,
  PNG,
  speechModel,
  videoModel,
  WAV,
  WEBM,
  WEBP,
  ZIP,
} from "./test-support/fixtures.ts";
import { toolsOver } from "./test-support/tools-over.ts";

const encode = (text: string) => new TextEncoder().encode(text);

const HTML = encode(
  "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>Bad gateway</body></html>",
);
const JSON_ERROR = encode('{"error":{"message":"Invalid API key","type":"invalid_request_error"}}');
const TEXT_ERROR = encode("upstream connect error or disconnect/reset before headers");
const XML_ERROR = encode('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>');
const SVG = encode(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- made by a vector model -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>',
);

/** The message a refused generation gets. */
const refused = (tool: string, what: string, wanted: string) =>
  `${tool}: the model provider failed: the model returned ${what} instead of ${wanted}; nothing was written. Try again, or check the model and its provider options.`;

describe("identifyGeneratedMedia", () => {
  const accepted: [GeneratedKind, Uint8Array, string, string, string][] = [
    ["image", PNG, "image/png", "image/png", "png"],
    ["image", JPEG, "image/png", "image/jpeg", "jpg"],
    ["image", GIF, "image/png", "image/gif", "gif"],
    ["image", WEBP, "image/webp", "image/webp", "webp"],
    ["image", SVG, "image/png", "image/svg+xml", "svg"],
    ["video", MP4, "video/mp4", "video/mp4", "mp4"],
    ["video", WEBM, "video/mp4", "video/webm", "webm"],
    ["video", MOV, "video/mp4", "video/quicktime", "mov"],
    ["audio", MP3, "audio/mp3", "audio/mpeg", "mp3"],
    ["audio", WAV, "audio/mp3", "audio/wav", "wav"],
    ["audio", FLAC, "audio/flac", "audio/flac", "flac"],
    ["audio", OGG_OPUS, "audio/ogg", "audio/ogg", "opus"],
    ["audio", M4A, "audio/mp4", "audio/mp4", "m4a"],
    // Audio in a video container, when the provider says it sent audio.
    ["audio", MP4, "audio/mp4", "audio/mp4", "m4a"],
    ["audio", WEBM, "audio/webm", "audio/webm", "webm"],
    // Raw PCM samples have no header; the provider's word is all there is.
    [
      "audio",
      new Uint8Array([0x10, 0x80, 0x22, 0x90, 0x33, 0xa0]),
      "audio/pcm",
      "audio/pcm",
      "pcm",
    ],
    ["audio", new Uint8Array([0x10, 0x80, 0x22, 0x90]), "audio/L16;rate=24000", "audio/pcm", "pcm"],
  ];
  for (const [kind, bytes, claimed, mediaType, extension] of accepted) {
    it(`takes ${mediaType} bytes as ${kind} (the provider said ${claimed}), saved as .${extension}`, () => {
      expect(identifyGeneratedMedia("generate_x", kind, bytes, claimed)).toMatchObject({
        mediaType,
        extension,
      });
    });
  }

  const refusals: [GeneratedKind, Uint8Array, string, string][] = [
    ["image", new Uint8Array(), "image/png", "an empty file"],
    ["image", HTML, "image/png", "an HTML page (text/html)"],
    ["image", JSON_ERROR, "image/png", "JSON (application/json)"],
    ["image", XML_ERROR, "image/png", "XML (application/xml)"],
    ["image", TEXT_ERROR, "image/png", "text (text/plain)"],
    ["image", MP3, "image/png", "audio (audio/mpeg)"],
    ["image", ZIP, "image/png", "a ZIP archive (application/zip)"],
    ["image", new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]), "image/png", "unknown binary data"],
    ["video", new Uint8Array(), "video/mp4", "an empty file"],
    ["video", HTML, "video/mp4", "an HTML page (text/html)"],
    ["video", PNG, "video/mp4", "an image (image/png)"],
    ["video", PDF, "video/mp4", "a document (application/pdf)"],
    ["audio", new Uint8Array(), "audio/mpeg", "an empty file"],
    ["audio", JSON_ERROR, "audio/mpeg", "JSON (application/json)"],
    ["audio", TEXT_ERROR, "audio/pcm", "text (text/plain)"],
    ["audio", MP4, "video/mp4", "a video (video/mp4)"],
    ["audio", new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7]), "audio/mpeg", "unknown binary data"],
  ];
  const names: Record<GeneratedKind, string> = {
    image: "an image",
    video: "a video",
    audio: "audio",
  };
  for (const [kind, bytes, claimed, what] of refusals) {
    it(`refuses ${what} where ${names[kind]} was asked for (the provider said ${claimed})`, () => {
      expect(() => identifyGeneratedMedia("generate_x", kind, bytes, claimed)).toThrow(
        expect.objectContaining({
          code: "PROVIDER_ERROR",
          message: refused("generate_x", what, names[kind]),
        }),
      );
    });
  }

  it("never takes text for an image unless it is an SVG document (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 200 }), (text) => {
        fc.pre(!/<svg/i.test(text));
        expect(() =>
          identifyGeneratedMedia("generate_image", "image", encode(text), "image/png"),
        ).toThrow(expect.objectContaining({ code: "PROVIDER_ERROR" }));
      }),
      { numRuns: 500 },
    );
  });
});

describe("the generate tools with what the provider returned", () => {
  function tools(returned: Uint8Array) {
    const { tools: media, written } = toolsOver(
      {},
      { image: imageModel(returned), video: videoModel(returned), speech: speechModel(returned) },
    );
    return { media, written };
  }

  const cases = [
    ["generate_image", "an image", { prompt: "A logo." }],
    ["generate_video", "a video", { prompt: "A teaser." }],
    ["generate_audio", "audio", { text: "Welcome." }],
  ] as const;

  for (const [tool, wanted, input] of cases) {
    for (const [what, bytes] of [
      ["an empty file", new Uint8Array()],
      ["an HTML page (text/html)", HTML],
      ["JSON (application/json)", JSON_ERROR],
      ["text (text/plain)", TEXT_ERROR],
    ] as const) {
      // Empty speech is refused by the AI SDK itself; see the test below.
      if (tool === "generate_audio" && bytes.length === 0) continue;
      it(`${tool} fails on ${what} from the provider and writes nothing`, async () => {
        const { media, written } = tools(bytes);
        expect(await call(media[tool] as Tool<unknown, unknown>, input)).toEqual({
          success: false,
          code: "PROVIDER_ERROR",
          error: refused(tool, what, wanted),
        });
        expect(written).toEqual([]);
      });
    }
  }

  // The AI SDK refuses empty speech itself (NoSpeechGeneratedError); the tool reports it the same way.
  it("generate_audio fails on 0 bytes from the provider and writes nothing", async () => {
    const { media, written } = tools(new Uint8Array());
    expect(await call(media.generate_audio, { text: "Welcome." })).toMatchObject({
      success: false,
      code: "PROVIDER_ERROR",
    });
    expect(written).toEqual([]);
  });

  it("generate_media fails the same way whatever the type", async () => {
    const { media, written } = tools(HTML);
    for (const type of ["image", "video", "audio"] as const) {
      expect(await call(media.generate_media, { type, prompt: "Something." })).toMatchObject({
        success: false,
        code: "PROVIDER_ERROR",
      });
    }
    expect(written).toEqual([]);
  });

  it("names the file and its media type after the bytes, not after what the provider claimed", async () => {
    // The video test model claims video/mp4 for whatever it returns.
    const { media, written } = tools(WEBM);
    const result = await call(media.generate_video, { prompt: "A teaser." });
    expect(result).toMatchObject({ success: true, mediaType: "video/webm", size: WEBM.length });
    expect(written).toEqual([expect.stringMatching(/^generated\/video-.*\.webm$/)]);
  });

  it("saves an SVG from an image model as image/svg+xml", async () => {
    const { media, written } = tools(SVG);
    const result = await call(media.generate_image, { prompt: "A vector logo." });
    expect(result).toMatchObject({ success: true, mediaType: "image/svg+xml" });
    expect(written).toEqual([expect.stringMatching(/^generated\/image-.*\.svg$/)]);
  });
});
