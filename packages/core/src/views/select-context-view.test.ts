import { CONTEXT_VIEW_PRESETS, type ContextView, selectContextView } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SECTIONED_CONTEXT_MD } from "../../test-corpus/context-md.ts";

/** The sections with a line before the first heading and a sub-section under the first one. */
const CONTEXT_MD = `Written by the main agent.\n\n${SECTIONED_CONTEXT_MD.replace(
  "Lumen, a note-taking app.\n",
  "Lumen, a note-taking app.\n\n### Screens\nSix screenshots.\n",
)}`;

const view = (fields: Omit<ContextView, "name">): ContextView => ({ name: "test", ...fields });

describe("selectContextView", () => {
  it("include: the named sections with their sub-sections, in file order, without the preamble", () => {
    expect(
      selectContextView(CONTEXT_MD, view({ include: ["key terminology", "What we are building"] })),
    ).toStrictEqual({
      content:
        "## What we are building\nLumen, a note-taking app.\n\n### Screens\nSix screenshots.\n\n## Key terminology\n- **Vault**: a user's notes.",
      sections: ["What we are building", "Screens", "Key terminology"],
      unknownHeadings: [],
    });
  });

  it("exclude only: everything else, the text before the first heading included", () => {
    expect(
      selectContextView(CONTEXT_MD, view({ exclude: ["Other details", "Screens"] })),
    ).toStrictEqual({
      content:
        "Written by the main agent.\n\n# Task context\n\n## What we are building\nLumen, a note-taking app.\n\n## Key terminology\n- **Vault**: a user's notes.\n\n## Visual and brand guidelines\nDeep teal, never pure black.",
      sections: [
        "Task context",
        "What we are building",
        "Key terminology",
        "Visual and brand guidelines",
      ],
      unknownHeadings: [],
    });
  });

  it("exclude applies after include, also to a sub-section of an included one", () => {
    expect(
      selectContextView(
        CONTEXT_MD,
        view({ include: ["Task context"], exclude: ["screens", "OTHER DETAILS"] }),
      ).sections,
    ).toStrictEqual([
      "Task context",
      "What we are building",
      "Key terminology",
      "Visual and brand guidelines",
    ]);
  });

  it("matches headings trimmed, with runs of whitespace as one, without regard to case", () => {
    expect(
      selectContextView("## Key   Terminology  \nVault.", view({ include: ["  key terminology"] }))
        .content,
    ).toBe("## Key   Terminology  \nVault.");
  });

  it("reports the headings the text does not have, once each, as the view spells them", () => {
    expect(
      selectContextView(
        CONTEXT_MD,
        view({ include: ["Brand rules", "Key terminology", "brand rules"], exclude: ["Tests"] }),
      ),
    ).toStrictEqual({
      content: "## Key terminology\n- **Vault**: a user's notes.",
      sections: ["Key terminology"],
      unknownHeadings: ["Brand rules", "Tests"],
    });
  });

  it("selects nothing when no included heading exists: empty content, no sections", () => {
    expect(selectContextView(CONTEXT_MD, view({ include: ["Deployment"] }))).toStrictEqual({
      content: "",
      sections: [],
      unknownHeadings: ["Deployment"],
    });
  });

  it("the media preset keeps what an image model needs", () => {
    expect(selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.media).sections).toStrictEqual([
      "What we are building",
      "Screens",
      "Key terminology",
      "Visual and brand guidelines",
    ]);
  });

  it("a heading in a code fence does not end the section", () => {
    const markdown = "## Other details\n```sh\n# install\npnpm i\n```\n## Key terminology\nVault.";
    expect(selectContextView(markdown, view({ include: ["Other details"] })).content).toBe(
      "## Other details\n```sh\n# install\npnpm i\n```",
    );
  });

  it.each([
    [{}, "Invalid view.name: expected the view's name, a non-empty string, got undefined."],
    [{ name: "  " }, "Invalid view.name: expected the view's name, got only whitespace."],
    [
      { name: "v", include: "Key terminology" },
      "Invalid view.include: expected an array of headings (strings), got a string.",
    ],
    [
      { name: "v", include: [] },
      "Invalid view.include: expected at least one heading: an empty include selects nothing. Leave include out to deliver every section.",
    ],
    [
      { name: "v", exclude: ["ok", 3] },
      "Invalid view.exclude[1]: expected a heading, a non-empty string, got a number (3).",
    ],
    [
      { name: "v", maxChars: 0 },
      "Invalid view.maxChars: expected a whole number ≥ 1, got a number (0).",
    ],
    [
      { name: "v", maxTokens: 1.5 },
      "Invalid view.maxTokens: expected a whole number ≥ 1, got a number (1.5).",
    ],
  ])("refuses the invalid view %j", (given, message) => {
    expect(() => selectContextView("# A", given as ContextView)).toThrow(message);
  });

  it("keeps every line exactly once: include and exclude of the same heading partition the text", () => {
    const line = fc.oneof(
      fc.constantFrom("# A", "## B", "### C", "## A", "```", "~~~", "", "text", "  # D"),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 30 }),
        fc.constantFrom("A", "B", "C", "D"),
        (lines, heading) => {
          const markdown = lines.join("\n");
          const kept = selectContextView(markdown, view({ include: [heading] }));
          const rest = selectContextView(markdown, view({ exclude: [heading] }));
          const all = selectContextView(markdown, view({}));
          expect(all.content).toBe(markdown.trim());
          // Every heading is delivered by exactly one of the two views.
          expect([...kept.sections, ...rest.sections].sort()).toEqual([...all.sections].sort());
          expect(kept.content.length + rest.content.length).toBeLessThanOrEqual(markdown.length);
        },
      ),
    );
  });
});
