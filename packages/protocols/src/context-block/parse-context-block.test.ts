import { ArgumentError, approximateTokenizer, type Tokenizer } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContextBlock } from "../schemas/context-block.ts";
import { approximateTokenUpperBound, parseContextBlock } from "./parse-context-block.ts";
import { SPEC_BLOCK, SPEC_TEXT } from "./spec-example.test-support.ts";

// The two blocks of spec 004, verbatim.
const SPEC_FORMAT = `\`\`\`yaml\n${SPEC_TEXT}\n\`\`\``;

const SPEC_BUILDER = `\`\`\`markdown
<context>
version: 1
project:
  path: /Users/dev/code/project
  stack: nextjs-prisma
  commands:
    test: npm test
    lint: npm run lint
conventions:
  summary: |
    TypeScript strict. Tailwind + shadcn/ui. App Router.
    Server components by default. Use 'use client' only when needed.
    Prisma ORM. Zod validation on all inputs.
  fullPath: /Users/dev/code/project/docs/CONVENTIONS.md
currentWork:
  prd: print-templates
  story: US-003 Add print preview modal
  branch: feature/print-templates
</context>

Implement US-003: Add print preview modal

The print preview should show a modal with the template rendered at actual size.
Use the existing Modal component from components/ui/modal.tsx.
\`\`\``;

const SPEC_CRITIC = `\`\`\`markdown
<context>
version: 1
project:
  path: /Users/dev/code/project
  stack: nextjs-prisma
  commands:
    test: npm test
conventions:
  summary: |
    Auth via NextAuth.js with JWT sessions. CSRF protection via SameSite cookies.
    All API routes require authentication middleware.
    Prisma for DB queries (parameterized by default).
  fullPath: /Users/dev/code/project/docs/CONVENTIONS.md
</context>

Review the following files for security issues:
- app/api/admin/users/route.ts
- lib/auth/middleware.ts
\`\`\``;

const MINIMAL =
  "project:\n  path: /repo\n  stack: hono\nconventions:\n  summary: Strict TypeScript.\n";
const MINIMAL_BLOCK: ContextBlock = {
  version: 1,
  project: { path: "/repo", stack: "hono" },
  conventions: { summary: "Strict TypeScript." },
};

/** A bare block around `yaml`, followed by a request. */
const bare = (yaml: string, request = "Do the task.") =>
  `<context>\n${yaml}</context>\n\n${request}`;

describe("parseContextBlock", () => {
  it("parses the spec's format example to the exact object", () => {
    expect(parseContextBlock(SPEC_FORMAT)).toEqual({
      status: "found",
      block: SPEC_BLOCK,
      rest: "",
      issues: [],
      warnings: [],
    });
  });

  it("parses the spec's builder example, whose fence also wraps the request", () => {
    expect(parseContextBlock(SPEC_BUILDER)).toEqual({
      status: "found",
      block: {
        version: 1,
        project: {
          path: "/Users/dev/code/project",
          stack: "nextjs-prisma",
          commands: { test: "npm test", lint: "npm run lint" },
        },
        conventions: {
          summary:
            "TypeScript strict. Tailwind + shadcn/ui. App Router.\nServer components by default. Use 'use client' only when needed.\nPrisma ORM. Zod validation on all inputs.\n",
          fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
        },
        currentWork: {
          prd: "print-templates",
          story: "US-003 Add print preview modal",
          branch: "feature/print-templates",
        },
      },
      rest: "Implement US-003: Add print preview modal\n\nThe print preview should show a modal with the template rendered at actual size.\nUse the existing Modal component from components/ui/modal.tsx.",
      issues: [],
      warnings: [],
    });
  });

  it("parses the spec's critic example, which has no currentWork", () => {
    expect(parseContextBlock(SPEC_CRITIC)).toEqual({
      status: "found",
      block: {
        version: 1,
        project: {
          path: "/Users/dev/code/project",
          stack: "nextjs-prisma",
          commands: { test: "npm test" },
        },
        conventions: {
          summary:
            "Auth via NextAuth.js with JWT sessions. CSRF protection via SameSite cookies.\nAll API routes require authentication middleware.\nPrisma for DB queries (parameterized by default).\n",
          fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
        },
      },
      rest: "Review the following files for security issues:\n- app/api/admin/users/route.ts\n- lib/auth/middleware.ts",
      issues: [],
      warnings: [],
    });
  });

  describe("forms", () => {
    it("finds a bare block and returns the request after it, leading blank lines removed", () => {
      const result = parseContextBlock(bare(MINIMAL, "  Implement it.\n\nThanks.\n"));
      expect(result.status).toBe("found");
      expect(result.block).toEqual(MINIMAL_BLOCK);
      expect(result.rest).toBe("  Implement it.\n\nThanks.\n");
    });

    it("allows whitespace before the block", () => {
      const result = parseContextBlock(`\n\n  \t${bare(MINIMAL)}`);
      expect(result.status).toBe("found");
      expect(result.rest).toBe("Do the task.");
    });

    it("reads CRLF line endings", () => {
      const prompt = bare(MINIMAL).replaceAll("\n", "\r\n");
      const result = parseContextBlock(prompt);
      expect(result.status).toBe("found");
      expect(result.block).toEqual(MINIMAL_BLOCK);
      expect(result.rest).toBe("Do the task.");
    });

    it.each(["```yaml", "```markdown", "```", "````yml", "~~~", "```md  "])(
      "finds a block in a %j fence that closes right after it",
      (opening) => {
        const fence = opening.trim().replace(/[a-z]+$/, "");
        const result = parseContextBlock(
          `${opening}\n<context>\n${MINIMAL}</context>\n${fence}\n\nRequest.`,
        );
        expect(result.status).toBe("found");
        expect(result.block).toEqual(MINIMAL_BLOCK);
        expect(result.rest).toBe("Request.");
      },
    );

    it("keeps code fences of a request wrapped in the block's fence", () => {
      const prompt = `\`\`\`markdown\n<context>\n${MINIMAL}</context>\n\nFix this:\n\`\`\`ts\nconst a = 1;\n\`\`\`\n\`\`\`\n`;
      const result = parseContextBlock(prompt);
      expect(result.status).toBe("found");
      expect(result.rest).toBe("Fix this:\n```ts\nconst a = 1;\n```");
    });

    it("keeps everything after the block when a wrapping fence is never closed", () => {
      const result = parseContextBlock(`\`\`\`\n<context>\n${MINIMAL}</context>\nDo it.\nNow.`);
      expect(result.status).toBe("found");
      expect(result.rest).toBe("Do it.\nNow.");
    });

    it("returns an empty request when nothing follows the block", () => {
      expect(parseContextBlock(`<context>\n${MINIMAL}</context>`).rest).toBe("");
      expect(parseContextBlock(`<context>\n${MINIMAL}</context>\n\n  \n`).rest).toBe("");
    });

    it("ends the block only at a line that is exactly </context>", () => {
      const yaml = [
        "project:",
        "  path: /repo",
        "  stack: 'a </context> b'",
        "  commands:",
        "    close: </context>",
        "conventions:",
        "  summary: |",
        "    Lines may mention",
        "    </context>",
        "    when indented.",
        "",
      ].join("\n");
      const result = parseContextBlock(`<context>\n${yaml}</context>   \nRequest.`);
      expect(result.status).toBe("found");
      expect(result.block?.project.commands).toEqual({ close: "</context>" });
      expect(result.block?.conventions.summary).toBe(
        "Lines may mention\n</context>\nwhen indented.\n",
      );
      expect(result.rest).toBe("Request.");
    });
  });

  describe("missing blocks", () => {
    it.each([
      ["a plain prompt", "Implement US-003."],
      ["an empty prompt", ""],
      ["whitespace only", " \n\t "],
      ["a block that is not at the start", `Please read this.\n${bare(MINIMAL)}`],
      ["another tag", "<contextual>\nversion: 1\n</contextual>"],
      ["a fence without a block", "```yaml\nversion: 1\n```"],
      ["a fence of two backticks", "``\n<context>\nversion: 1\n</context>\n``"],
    ])("reports %s as missing and returns the prompt unchanged", (_name, prompt) => {
      expect(parseContextBlock(prompt)).toEqual({
        status: "missing",
        block: undefined,
        rest: prompt,
        issues: [],
        warnings: [],
      });
    });
  });

  describe("versions", () => {
    it("treats a block without version as version 1", () => {
      expect(parseContextBlock(bare(MINIMAL)).block?.version).toBe(1);
    });

    it("treats an empty version as version 1", () => {
      const result = parseContextBlock(bare(`version:\n${MINIMAL}`));
      expect(result.status).toBe("found");
      expect(result.block?.version).toBe(1);
    });

    it("accepts version 1.0, the same YAML number as 1", () => {
      expect(parseContextBlock(bare(`version: 1.0\n${MINIMAL}`)).status).toBe("found");
    });

    it("reports version 2 as unsupported so that the caller falls back", () => {
      expect(parseContextBlock(bare(`version: 2\n${MINIMAL}`, "Go."))).toEqual({
        status: "unsupported-version",
        block: undefined,
        rest: "Go.",
        issues: [
          {
            path: "/version",
            message:
              'Context Protocol version 2 is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.',
            line: 2,
          },
        ],
        warnings: [],
      });
    });

    it("does not validate the fields of an unsupported version", () => {
      const result = parseContextBlock(bare("version: 2\nsomething: new\n"));
      expect(result.status).toBe("unsupported-version");
      expect(result.issues).toHaveLength(1);
    });

    it('reports the text "1" as an unsupported version and says to drop the quotes', () => {
      const result = parseContextBlock(bare(`version: "1"\n${MINIMAL}`));
      expect(result.status).toBe("unsupported-version");
      expect(result.issues).toEqual([
        {
          path: "/version",
          message:
            'version is the text "1", not the number 1, so this block is treated as an unsupported version and the project files are read instead. Write "version: 1" without quotes.',
          line: 2,
        },
      ]);
    });

    it.each([
      ["1.1", "1.1"],
      ["'v2'", '"v2"'],
      ["true", "true"],
      ["[1]", "a list"],
    ])("reports version %s as unsupported", (written, shown) => {
      const result = parseContextBlock(bare(`version: ${written}\n${MINIMAL}`));
      expect(result.status).toBe("unsupported-version");
      expect(result.issues[0]?.message).toBe(
        `Context Protocol version ${shown} is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.`,
      );
    });
  });

  describe("invalid blocks", () => {
    it("reports an unclosed block and keeps the whole prompt", () => {
      const prompt = `<context>\n${MINIMAL}\nDo it.`;
      expect(parseContextBlock(prompt)).toEqual({
        status: "invalid",
        block: undefined,
        rest: prompt,
        issues: [
          {
            path: "",
            message:
              "The <context> block is not closed. Add a line containing only </context> after the YAML.",
            line: 1,
          },
        ],
        warnings: [],
      });
    });

    it("reports text on the <context> line", () => {
      const result = parseContextBlock("<context>version: 1\n</context>\nGo.");
      expect(result.status).toBe("invalid");
      expect(result.rest).toBe("<context>version: 1\n</context>\nGo.");
      expect(result.issues).toEqual([
        {
          path: "",
          message:
            "<context> must be alone on its line, with the YAML on the lines after it and </context> alone on a line after the YAML.",
          line: 1,
        },
      ]);
    });

    it.each([
      ["an empty block", "", "nothing"],
      ["a list", "- a\n- b\n", "a list"],
      ["text", "just text\n", 'the text "just text"'],
    ])("reports %s as not a mapping", (_name, yaml, shown) => {
      const result = parseContextBlock(`\n<context>\n${yaml}</context>\nGo.`);
      expect(result.status).toBe("invalid");
      expect(result.rest).toBe("Go.");
      expect(result.issues).toEqual([
        {
          path: "",
          message: `The <context> block must be a YAML mapping with version, project and conventions, not ${shown}.`,
          line: 2,
        },
      ]);
    });

    it("names the prompt line of a YAML syntax error", () => {
      const prompt = "\n\n<context>\nproject:\n  path: /x\n stack: y\n</context>\nGo.";
      const result = parseContextBlock(prompt);
      expect(result.status).toBe("invalid");
      expect(result.rest).toBe("Go.");
      expect(result.issues).toEqual([
        {
          path: "",
          message:
            "All mapping items must start at the same column. Align entries of the same mapping or list at the same column, with spaces.",
          line: 6,
        },
      ]);
    });

    it("names the last YAML line, not the closing tag, for an error at the end of the YAML", () => {
      const result = parseContextBlock("<context>\nproject:\n  path: [x\n</context>\nGo.");
      expect(result.issues[0]?.line).toBe(3);
    });

    it("refuses anchors and aliases with the path and line", () => {
      const result = parseContextBlock(
        bare("project:\n  path: /x\n  stack: &s nextjs\nconventions:\n  summary: *s\n"),
      );
      expect(result.status).toBe("invalid");
      expect(result.issues).toEqual([
        {
          path: "/project/stack",
          message:
            "Anchors (&s) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.",
          line: 4,
        },
      ]);
    });

    it("lists every schema problem with its JSON Pointer and line", () => {
      const yaml = [
        "project:",
        "  path: relative/path",
        "  stak: nextjs",
        "  commands:",
        "    test: 1",
        "    lint: [eslint]",
        "conventions:",
        "  fullpath: /x/docs/CONVENTIONS.md",
        "extra: true",
        "",
      ].join("\n");
      const result = parseContextBlock(bare(yaml));
      expect(result.status).toBe("invalid");
      expect(result.block).toBe(undefined);
      expect(result.rest).toBe("Do the task.");
      expect(result.issues).toEqual([
        {
          path: "/project/path",
          message:
            'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the text "relative/path".',
          line: 3,
        },
        {
          path: "/project/stack",
          message:
            "project.stack is required: the stack identifier from project.json, e.g. nextjs-prisma.",
          line: 2,
        },
        {
          path: "/project/commands/test",
          message:
            'project.commands.test must be text, not the number 1. Quote it to make it text: "1".',
          line: 6,
        },
        {
          path: "/project/commands/lint",
          message: "project.commands.lint must be text, not a list.",
          line: 7,
        },
        {
          path: "/project/stak",
          message:
            'Unknown field "stak" in project. Context Protocol v1 allows: path, stack, commands.',
          line: 4,
        },
        {
          path: "/conventions/summary",
          message:
            "conventions.summary is required: a 2-5 sentence summary of the key conventions (50-100 tokens).",
          line: 8,
        },
        {
          path: "/conventions/fullpath",
          message:
            'Unknown field "fullpath" in conventions. Did you mean "fullPath"? Context Protocol v1 allows: summary, fullPath.',
          line: 9,
        },
        {
          path: "/extra",
          message:
            'Unknown field "extra" at the top level. Context Protocol v1 allows: version, project, conventions, currentWork.',
          line: 10,
        },
      ]);
    });

    it("reports a missing section without a line", () => {
      const result = parseContextBlock(bare("project:\n  path: /x\n  stack: y\n"));
      expect(result.issues).toEqual([
        {
          path: "/conventions",
          message:
            "conventions is required: a mapping with summary (2-5 sentences) and, optionally, fullPath.",
        },
      ]);
    });

    it("reports an empty summary and a JSON Pointer escape for odd keys", () => {
      const result = parseContextBlock(
        bare(
          "project:\n  path: /x\n  stack: y\n  commands:\n    a/b~c: 3\nconventions:\n  summary: ''\n",
        ),
      );
      expect(result.issues).toEqual([
        {
          path: "/project/commands/a~1b~0c",
          message:
            'project.commands["a/b~c"] must be text, not the number 3. Quote it to make it text: "3".',
          line: 6,
        },
        {
          path: "/conventions/summary",
          message: "conventions.summary must not be empty.",
          line: 8,
        },
      ]);
    });

    it("refuses a command named __proto__ instead of dropping it", () => {
      const result = parseContextBlock(
        bare(
          "project:\n  path: /x\n  stack: y\n  commands:\n    __proto__: evil\nconventions:\n  summary: s\n",
        ),
      );
      expect(result.status).toBe("invalid");
      expect(result.issues).toEqual([
        {
          path: "/project/commands/__proto__",
          message:
            'project.commands may not have a command named "__proto__" (it would replace the prototype of objects it is copied into). Rename the command.',
          line: 6,
        },
      ]);
    });

    it("reports a block over the size limit as not closed within it", () => {
      const prompt = `<context>\nproject:\n  summary: ${"x".repeat(70_000)}\n</context>\nGo.`;
      const result = parseContextBlock(prompt);
      expect(result.status).toBe("invalid");
      expect(result.rest).toBe(prompt);
      expect(result.issues[0]?.message).toBe(
        "The <context> block has no closing </context> line within 65536 bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.",
      );
    });

    it("reports a block over a smaller maxBytes as too large", () => {
      const result = parseContextBlock(bare(MINIMAL), { maxBytes: 40 });
      expect(result.status).toBe("invalid");
      expect(result.issues[0]?.message).toBe(
        "The <context> block has no closing </context> line within 40 bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.",
      );
    });

    it("looks no further than the size limit for the closing line of a huge prompt", () => {
      const prompt = `<context>\n${"a: b\n".repeat(2_000_000)}`;
      expect(prompt.charCodeAt(prompt.length - 1)).toBe(10);
      const start = performance.now();
      const result = parseContextBlock(prompt);
      expect(performance.now() - start).toBeLessThan(50);
      expect(result.status).toBe("invalid");
    });
  });

  describe("summary length", () => {
    // One token per short English word for the approximate tokenizer (and for o200k).
    const summary = (words: number) => "alpha ".repeat(words).trimEnd();

    it("warns when the summary is over 200 tokens and quotes the 50-100 token target", () => {
      const result = parseContextBlock(
        bare(`project:\n  path: /x\n  stack: y\nconventions:\n  summary: ${summary(250)}\n`),
      );
      expect(result.status).toBe("found");
      expect(result.warnings).toEqual([
        "conventions.summary is 250 tokens (approximate count), over Context Protocol v1's maximum of 200; the target is 50-100 tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.",
      ]);
    });

    it("does not warn at 200 tokens", () => {
      const result = parseContextBlock(
        bare(`project:\n  path: /x\n  stack: y\nconventions:\n  summary: ${summary(200)}\n`),
      );
      expect(result.warnings).toEqual([]);
    });

    it("counts with the tokenizer it is given", () => {
      const perCharacter: Tokenizer = {
        name: "per-character",
        count: (text) => text.length,
        truncate: (text, maxTokens) => text.slice(0, maxTokens),
      };
      const result = parseContextBlock(
        bare(MINIMAL.replace("Strict TypeScript.", "x".repeat(201))),
        {
          tokenizer: perCharacter,
        },
      );
      expect(result.warnings).toEqual([
        "conventions.summary is 201 tokens (per-character count), over Context Protocol v1's maximum of 200; the target is 50-100 tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.",
      ]);
    });
  });

  it("bounds the approximate token count from above, so skipping the count never hides a warning (fuzzed)", () => {
    const unit = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "grapheme" }),
      fc.constantFrom(
        " ",
        "  ",
        "\t",
        "\r\n",
        "\n\n",
        "word",
        "wordswordswords",
        "42",
        "...",
        "→",
        "中文",
        "한국어",
        "😀👍🏽",
        "🇫🇷",
        "é",
        "e\u0301",
        "Ωmega",
        "𝐀",
      ),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(approximateTokenUpperBound(text)).toBeGreaterThanOrEqual(
          approximateTokenizer.count(text),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it("throws ArgumentError for a prompt that is not a string or a bad limit", () => {
    expect(() => parseContextBlock(undefined as unknown as string)).toThrow(ArgumentError);
    expect(() => parseContextBlock("no block", { maxBytes: -1 })).toThrow(ArgumentError);
    expect(() => parseContextBlock("no block", { maxDepth: 0 })).toThrow(ArgumentError);
  });

  it("never throws for any string (fuzzed)", () => {
    const fragment = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom(
        "<context>",
        "</context>",
        "<context>\n",
        "\n</context>\n",
        "```",
        "```yaml\n",
        "~~~\n",
        "version: 1\n",
        "version: 2\n",
        "project:\n  path: /x\n  stack: y\n",
        "conventions:\n  summary: s\n",
        "  commands:\n    a: b\n",
        "&a ",
        "*a",
        "!!js/function ",
        "[",
        "{",
        "- ",
        ": ",
        "\n",
        "\r\n",
        " ",
        "\t",
        "\u2028",
        "\ufeff",
        "\ud800",
        "__proto__: 1\n",
      ),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), (fragments) => {
        const prompt = fragments.join("");
        const result = parseContextBlock(prompt);
        expect(["found", "missing", "unsupported-version", "invalid"]).toContain(result.status);
        expect(prompt.includes(result.rest)).toBe(true);
        expect(result.block === undefined).toBe(result.status !== "found");
        if (result.status === "missing") expect(result.rest).toBe(prompt);
      }),
      { numRuns: 2000 },
    );
  });
});
