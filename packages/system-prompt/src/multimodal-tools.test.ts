import { expect, it } from "vitest";
import { MULTIMODAL_TOOL_NAMES, multimodalToolNames } from "./multimodal-tools.ts";

it("knows the seven multimodal tools of spec 000 and their two dispatchers", () => {
  expect([...MULTIMODAL_TOOL_NAMES]).toEqual([
    "read_media",
    "generate_media",
    "understand_image",
    "understand_audio",
    "understand_video",
    "understand_file",
    "generate_image",
    "generate_video",
    "generate_audio",
  ]);
  expect(multimodalToolNames(["web_search", "generate_video", "read_media", "read_media"])).toEqual(
    ["generate_video", "read_media"],
  );
  expect(
    multimodalToolNames([
      { name: "ocr", multimodal: true },
      { name: "generate_image", multimodal: false },
    ]),
  ).toEqual(["ocr"]);
});

it("reads the names of an AI SDK tools record", () => {
  expect(multimodalToolNames({ read_media: {}, web_search: {}, generate_media: {} })).toEqual([
    "read_media",
    "generate_media",
  ]);
});
