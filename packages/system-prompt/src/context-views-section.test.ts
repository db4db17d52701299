import { CONTEXT_VIEW_PRESETS, loadTaskContext, memoryWorkspace } from "@task-context/core";
import { buildSystemPrompt, EXAMPLE_CONTEXT_MD } from "@task-context/system-prompt";
import { describe, expect, it } from "vitest";
import { buildSystemPromptSections } from "./build-system-prompt.ts";

const VIEWS = {
  "`generate_image`": CONTEXT_VIEW_PRESETS.media,
  "review subagents": {
    name: "no-brand",
    exclude: ["Visual and brand guidelines"],
    maxChars: 4_000,
  },
};

describe("buildSystemPrompt({ views })", () => {
  it("tells the agent which recipient sees which sections, and the headings to write them under", () => {
    const sections = buildSystemPromptSections({ tools: ["generate_media"], views: VIEWS });
    expect(sections.map((section) => section.id)).toEqual(["task-context", "context-views"]);
    expect(sections[1]?.text).toBe(`### What each recipient sees of CONTEXT.md

Some recipients receive only some sections of CONTEXT.md — a section runs from its heading to the next heading of the same or a higher level:
- \`generate_image\`: the sections "What we are building", "Key terminology", "Visual and brand guidelines" (view "media").
- review subagents: every section, without "Visual and brand guidelines", at most 4000 characters (view "no-brand").

Write these sections under exactly these headings, or the recipients above miss them: "What we are building", "Key terminology", "Visual and brand guidelines". Every other recipient receives the whole file.`);
  });

  it("leaves the prompt exactly as before without views", () => {
    const options = { base: "You help.", tools: ["read_media"], canSpawnSubagents: true };
    expect(buildSystemPrompt({ ...options, views: {} })).toBe(buildSystemPrompt(options));
  });

  it("the headings it teaches are the example's: the media view of the example CONTEXT.md names them all", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": EXAMPLE_CONTEXT_MD }), {
      view: CONTEXT_VIEW_PRESETS.media,
    });
    expect(context.warning).toBeUndefined();
    expect(context.view?.sections).toEqual([
      "What we are building",
      "Key terminology",
      "Visual and brand guidelines",
    ]);
  });

  it.each([
    [[], "Invalid views: expected an object of views by recipient, got an array."],
    [
      { "": CONTEXT_VIEW_PRESETS.media },
      "Invalid views: expected recipients' names as keys, got the empty string.",
    ],
    [
      { generate_image: { include: ["A"] } },
      "Invalid views.generate_image.name: expected the view's name, a non-empty string, got undefined.",
    ],
  ])("refuses views %j", (views, message) => {
    expect(() => buildSystemPrompt({ views: views as never })).toThrow(message);
  });
});
