import {
  CONTEXT_FILENAME,
  CONTEXT_MISSING_MESSAGE,
  DEFAULT_MAX_CHARS,
  loadTaskContext,
  memoryWorkspace,
} from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { lintContextMd } from "@task-context/protocols/context-md";
import {
  buildSystemPrompt,
  EXAMPLE_CONTEXT_MD,
  measureSystemPrompt,
} from "@task-context/system-prompt";
import { describe, expect, it } from "vitest";
import { buildSystemPromptSections } from "./build-system-prompt.ts";
import { EXAMPLE_CONTEXT_BLOCK } from "./context-protocol-section.ts";

const BASE = "You are a launch assistant for mobile apps.";

describe("spec 000: System Prompt Instructions", () => {
  it("Agent receives CONTEXT.md instructions: with multimodal tools", () => {
    const prompt = buildSystemPrompt({
      base: BASE,
      tools: ["read_media", "generate_media", "web_search"],
    });
    expect(prompt).toMatchSnapshot();
    expect(prompt).toContain("## Task context (CONTEXT.md)");
    expect(prompt).toContain("- Before your first call to `read_media`, `generate_media`.");
    expect(prompt).not.toContain("spawn a subagent");
  });

  it("Agent receives CONTEXT.md instructions: with subagents", () => {
    const prompt = buildSystemPrompt({ base: BASE, canSpawnSubagents: true });
    expect(prompt).toMatchSnapshot();
    expect(prompt).toContain("- Before you spawn a subagent.");
    expect(prompt).toContain("## Passing project context to subagents (Context Protocol v1)");
  });

  it("Agent receives CONTEXT.md instructions: with both", () => {
    expect(
      buildSystemPrompt({
        base: BASE,
        tools: [{ name: "describe_chart", multimodal: true }],
        canSpawnSubagents: true,
      }),
    ).toMatchSnapshot();
  });

  it("leaves the CONTEXT.md section out when there are no multimodal tools and no subagents", () => {
    expect(
      buildSystemPrompt({
        base: BASE,
        tools: ["web_search", { name: "read_media", multimodal: false }],
      }),
    ).toBe(BASE);
    expect(buildSystemPrompt()).toBe("");
  });
});

describe("buildSystemPrompt", () => {
  it("covers when to create CONTEXT.md, what to include and an example", () => {
    const prompt = buildSystemPrompt({ tools: ["understand_image"] });
    expect(prompt).toContain("When to create it:");
    expect(prompt).toContain("- What we are building or doing.");
    expect(prompt).toContain("- Key terminology specific to the task");
    expect(prompt).toContain("- Visual and brand guidelines, if relevant.");
    expect(prompt).toContain(
      `Example ${CONTEXT_FILENAME}:\n\n\`\`\`markdown\n${EXAMPLE_CONTEXT_MD}\n\`\`\``,
    );
    expect(prompt).toContain("Keep it under 10000 characters");
  });

  it("shows an example CONTEXT.md that passes the linter", () => {
    expect(lintContextMd(EXAMPLE_CONTEXT_MD)).toEqual({ ok: true, issues: [] });
  });

  it("shows a Context Protocol v1 example that parses back to the example block", () => {
    const prompt = buildSystemPrompt({ canSpawnSubagents: true });
    const start = prompt.indexOf("<context>\nversion");
    const end = prompt.indexOf("</context>") + "</context>".length;
    const parsed = parseContextBlock(`${prompt.slice(start, end)}\n\nDo the work.`);
    expect(parsed).toStrictEqual({
      status: "found",
      block: EXAMPLE_CONTEXT_BLOCK,
      request: "Do the work.",
    });
  });

  it("is deterministic", () => {
    const options = { base: BASE, tools: ["generate_image"], canSpawnSubagents: true } as const;
    expect(buildSystemPrompt(options)).toBe(buildSystemPrompt(options));
  });

  it("composes extra sections in order, ties in the order given", () => {
    const ids = buildSystemPromptSections({
      base: BASE,
      tools: ["read_media"],
      canSpawnSubagents: true,
      sections: [
        { id: "style", text: "Write in British English." },
        { id: "safety", text: "Never share credentials.", order: 50 },
        { id: "tools", text: "Prefer local tools." },
      ],
    }).map((section) => section.id);
    expect(ids).toEqual(["base", "safety", "task-context", "context-protocol", "style", "tools"]);
  });

  it("uses a custom example and limit", () => {
    const prompt = buildSystemPrompt({
      tools: ["read_media"],
      contextExample: "# Mine\n",
      maxContextChars: 4000,
    });
    expect(prompt).toContain("```markdown\n# Mine\n```");
    expect(prompt).toContain("Keep it under 4000 characters");
  });

  it("refuses two sections with the same id", () => {
    expect(() =>
      buildSystemPrompt({ base: BASE, sections: [{ id: "base", text: "again" }] }),
    ).toThrow('Invalid sections: two sections have the id "base"; give each a unique id.');
  });

  it("reports each section's o200k token count", () => {
    const options = { base: BASE, tools: ["read_media"], canSpawnSubagents: true };
    const measured = measureSystemPrompt(options, o200kTokenizer);
    expect(measured.text).toBe(buildSystemPrompt(options));
    expect(measured.tokenizer).toBe("o200k_base");
    expect(measured.tokens).toBe(o200kTokenizer.count(measured.text));
    expect(measured.sections.map((section) => section.id)).toEqual([
      "base",
      "task-context",
      "context-protocol",
    ]);
    for (const section of buildSystemPromptSections(options)) {
      expect(measured.sections.find((entry) => entry.id === section.id)?.tokens).toBe(
        o200kTokenizer.count(section.text),
      );
    }
  });
});

describe("the CONTEXT.md instructions match what the loader does", () => {
  const prompt = buildSystemPrompt({ tools: ["read_media"], canSpawnSubagents: true });

  it("quotes the loader's default limit, and whitespace around the text does not count", async () => {
    expect(prompt).toContain(
      `Keep it under ${DEFAULT_MAX_CHARS} characters; surrounding whitespace does not count. A longer file is cut, and tool and subagent results then carry a warning that says so.`,
    );
    const padded = `\n\n${"x".repeat(DEFAULT_MAX_CHARS)}\n\n  `;
    const fits = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": padded }));
    expect([fits.truncated, fits.warning]).toEqual([false, undefined]);
    const over = await loadTaskContext(
      memoryWorkspace({ "CONTEXT.md": "x".repeat(DEFAULT_MAX_CHARS + 1) }),
    );
    expect(over.warning).toBe(
      `CONTEXT.md was truncated from ${DEFAULT_MAX_CHARS + 1} to ${DEFAULT_MAX_CHARS} characters (limit ${DEFAULT_MAX_CHARS}). Consider shortening it.`,
    );
  });

  it("says an empty file counts as missing, and quotes the start of the loader's error", async () => {
    expect(prompt).toContain("An empty file counts as missing.");
    await expect(
      loadTaskContext(memoryWorkspace({ "CONTEXT.md": " \n\t\n" })),
    ).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING", reason: "empty" });
    const quoted = /fail with "([^"]+)"\./.exec(prompt)?.[1] ?? "";
    expect(quoted).toBe("CONTEXT.md not found in workspace");
    expect(CONTEXT_MISSING_MESSAGE.startsWith(quoted)).toBe(true);
  });

  it("fences an example that contains a code fence with a longer fence", () => {
    const example = "# Context\n\n```ts\nconst brand = `lumen`;\n```";
    const text = buildSystemPrompt({ tools: ["read_media"], contextExample: example });
    expect(text.endsWith(`Example CONTEXT.md:\n\n\`\`\`\`markdown\n${example}\n\`\`\`\``)).toBe(
      true,
    );
  });
});
