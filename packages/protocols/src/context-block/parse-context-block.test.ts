import { ArgumentError, type Tokenizer } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ContextBlock } from "../schemas/context-block.ts";
import { SPEC_BLOCK, SPEC_TEXT } from "../test-support/spec-example.ts";
import {
  type ParseContextBlockOptions,
  type ParsedContextBlock,
  parseContextBlock,
} from "./parse-context-block.ts";

// The protocol's two example blocks, verbatim.
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

type Found = Extract<ParsedContextBlock, { status: "found" }>;
type Refused = Extract<ParsedContextBlock, { status: "invalid" | "unsupported-version" }>;

/** The result for `prompt`, which must have a valid block. */
function found(prompt: string, options?: ParseContextBlockOptions): Found {
  const result = parseContextBlock(prompt, options);
  if (result.status !== "found") throw new Error(`expected a block, got ${JSON.stringify(result)}`);
  return result;
}

/** The result for `prompt`, which must have an invalid or unsupported block. */
function refused(prompt: string, options?: ParseContextBlockOptions): Refused {
  const result = parseContextBlock(prompt, options);
  if (result.status !== "invalid" && result.status !== "unsupported-version") {
    throw new Error(`expected a refused block, got ${JSON.stringify(result)}`);
  }
  return result;
}

describe("parseContextBlock", () => {
  it("parses the spec's format example to the exact object", () => {
    expect(parseContextBlock(SPEC_FORMAT)).toEqual({
      status: "found",
      block: SPEC_BLOCK,
      request: "",
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
      request:
        "Implement US-003: Add print preview modal\n\nThe print preview should show a modal with the template rendered at actual size.\nUse the existing Modal component from components/ui/modal.tsx.",
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
      request:
        "Review the following files for security issues:\n- app/api/admin/users/route.ts\n- lib/auth/middleware.ts",
    });
  });

  describe("forms", () => {
    it("finds a bare block and returns the request after it, leading blank lines removed", () => {
      const result = found(bare(MINIMAL, "  Implement it.\n\nThanks.\n"));
      expect(result.block).toEqual(MINIMAL_BLOCK);
      expect(result.request).toBe("  Implement it.\n\nThanks.\n");
    });

    it("allows whitespace before the block", () => {
      const result = found(`\n\n  \t${bare(MINIMAL)}`);
      expect(result.request).toBe("Do the task.");
    });

    it("reads CRLF line endings", () => {
      const prompt = bare(MINIMAL).replaceAll("\n", "\r\n");
      const result = found(prompt);
      expect(result.block).toEqual(MINIMAL_BLOCK);
      expect(result.request).toBe("Do the task.");
    });

    it.each(["```yaml", "```markdown", "```", "````yml", "~~~", "```md  "])(
      "finds a block in a %j fence that closes right after it",
      (opening) => {
        const fence = opening.trim().replace(/[a-z]+$/, "");
        const result = found(`${opening}\n<context>\n${MINIMAL}</context>\n${fence}\n\nRequest.`);
        expect(result.block).toEqual(MINIMAL_BLOCK);
        expect(result.request).toBe("Request.");
      },
    );

    it("keeps code fences of a request wrapped in the block's fence", () => {
      const prompt = `\`\`\`markdown\n<context>\n${MINIMAL}</context>\n\nFix this:\n\`\`\`ts\nconst a = 1;\n\`\`\`\n\`\`\`\n`;
      const result = found(prompt);
      expect(result.request).toBe("Fix this:\n```ts\nconst a = 1;\n```");
    });

    it("keeps everything after the block when a wrapping fence is never closed", () => {
      const result = found(`\`\`\`\n<context>\n${MINIMAL}</context>\nDo it.\nNow.`);
      expect(result.request).toBe("Do it.\nNow.");
    });

    it("returns an empty request when nothing follows the block", () => {
      expect(found(`<context>\n${MINIMAL}</context>`).request).toBe("");
      expect(found(`<context>\n${MINIMAL}</context>\n\n  \n`).request).toBe("");
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
      const result = found(`<context>\n${yaml}</context>   \nRequest.`);
      expect(result.block.project.commands).toEqual({ close: "</context>" });
      expect(result.block.conventions.summary).toBe(
        "Lines may mention\n</context>\nwhen indented.\n",
      );
      expect(result.request).toBe("Request.");
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
      expect(parseContextBlock(prompt)).toEqual({ status: "missing", request: prompt });
    });
  });

  describe("versions", () => {
    it("treats a block without version as version 1", () => {
      expect(found(bare(MINIMAL)).block.version).toBe(1);
    });

    it("treats an empty version as version 1", () => {
      const result = found(bare(`version:\n${MINIMAL}`));
      expect(result.block.version).toBe(1);
    });

    it("accepts version 1.0, the same YAML number as 1", () => {
      expect(parseContextBlock(bare(`version: 1.0\n${MINIMAL}`)).status).toBe("found");
    });

    it("reports version 2 as unsupported so that the caller falls back", () => {
      expect(parseContextBlock(bare(`version: 2\n${MINIMAL}`, "Go."))).toEqual({
        status: "unsupported-version",
        request: "Go.",
        issues: [
          {
            path: "/version",
            message:
              'Context Protocol version 2 is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.',
            line: 2,
          },
        ],
      });
    });

    it("does not validate the fields of an unsupported version", () => {
      const result = refused(bare("version: 2\nsomething: new\n"));
      expect(result.status).toBe("unsupported-version");
      expect(result.issues).toHaveLength(1);
    });

    it('reports the text "1" as an unsupported version and says to drop the quotes', () => {
      const result = refused(bare(`version: "1"\n${MINIMAL}`));
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
      const result = refused(bare(`version: ${written}\n${MINIMAL}`));
      expect(result.status).toBe("unsupported-version");
      expect(result.issues[0]?.message).toBe(
        `Context Protocol version ${shown} is not supported (this receiver understands version 1), so the block is ignored and the project files are read instead. Send "version: 1" to be understood.`,
      );
    });
  });

  describe("invalid blocks", () => {
    // Each refusal's whole result: its status, the request it keeps and every issue, exactly.
    const refusals: [string, string, Refused][] = [
      [
        "reports an unclosed block and keeps the whole prompt",
        `<context>\n${MINIMAL}\nDo it.`,
        {
          status: "invalid",
          request: `<context>\n${MINIMAL}\nDo it.`,
          issues: [
            {
              path: "",
              message:
                "The <context> block is not closed. Add a line containing only </context> after the YAML.",
              line: 1,
            },
          ],
        },
      ],
      [
        "reports text on the <context> line",
        "<context>version: 1\n</context>\nGo.",
        {
          status: "invalid",
          request: "<context>version: 1\n</context>\nGo.",
          issues: [
            {
              path: "",
              message:
                "<context> must be alone on its line, with the YAML on the lines after it and </context> alone on a line after the YAML.",
              line: 1,
            },
          ],
        },
      ],
      [
        "names the prompt line of a YAML syntax error",
        "\n\n<context>\nproject:\n  path: /x\n stack: y\n</context>\nGo.",
        {
          status: "invalid",
          request: "Go.",
          issues: [
            {
              path: "",
              message:
                "All mapping items must start at the same column. Align entries of the same mapping or list at the same column, with spaces.",
              line: 6,
            },
          ],
        },
      ],
      [
        "refuses anchors and aliases with the path and line",
        bare("project:\n  path: /x\n  stack: &s nextjs\nconventions:\n  summary: *s\n"),
        {
          status: "invalid",
          request: "Do the task.",
          issues: [
            {
              path: "/project/stack",
              message:
                "Anchors (&s) are not allowed in untrusted YAML. Remove the anchor and write the values out in full.",
              line: 4,
            },
          ],
        },
      ],
      [
        "lists every schema problem with its JSON Pointer and line",
        bare(
          [
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
          ].join("\n"),
        ),
        {
          status: "invalid",
          request: "Do the task.",
          issues: [
            {
              path: "/project/path",
              message:
                'project.path must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app), not the text "relative/path".',
              line: 3,
            },
            {
              path: "/project/stack",
              message:
                "project.stack is required: non-empty text, the stack identifier from project.json, e.g. nextjs-prisma.",
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
              message: 'Unknown field "stak" in project. Allowed: path, stack, commands.',
              line: 4,
            },
            {
              path: "/conventions/summary",
              message:
                "conventions.summary is required: non-empty text, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200).",
              line: 8,
            },
            {
              path: "/conventions/fullpath",
              message:
                'Unknown field "fullpath" in conventions. Did you mean "fullPath"? Allowed: summary, fullPath.',
              line: 9,
            },
            {
              path: "/extra",
              message:
                'Unknown field "extra" in the block. Allowed: version, project, conventions, currentWork.',
              line: 10,
            },
          ],
        },
      ],
      [
        "reports a missing section without a line",
        bare("project:\n  path: /x\n  stack: y\n"),
        {
          status: "invalid",
          request: "Do the task.",
          issues: [
            {
              path: "/conventions",
              message: "conventions is required: a mapping with summary and, optionally, fullPath.",
            },
          ],
        },
      ],
      [
        "reports an empty summary and a JSON Pointer escape for odd keys",
        bare(
          "project:\n  path: /x\n  stack: y\n  commands:\n    a/b~c: 3\nconventions:\n  summary: ''\n",
        ),
        {
          status: "invalid",
          request: "Do the task.",
          issues: [
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
          ],
        },
      ],
      [
        "refuses a command named __proto__ instead of dropping it",
        bare(
          "project:\n  path: /x\n  stack: y\n  commands:\n    __proto__: evil\nconventions:\n  summary: s\n",
        ),
        {
          status: "invalid",
          request: "Do the task.",
          issues: [
            {
              path: "/project/commands/__proto__",
              message:
                'project.commands may not have a key named "__proto__" (it would replace the prototype of objects it is copied into). Rename it.',
              line: 6,
            },
          ],
        },
      ],
    ];
    // toStrictEqual: a refused result has no `block` key at all.
    it.each(refusals)("%s", (_name, prompt, result) => {
      expect(parseContextBlock(prompt)).toStrictEqual(result);
    });

    it.each([
      ["an empty block", "", "nothing"],
      ["a list", "- a\n- b\n", "a list"],
      ["text", "just text\n", 'the text "just text"'],
    ])("reports %s as not a mapping", (_name, yaml, shown) => {
      const result = refused(`\n<context>\n${yaml}</context>\nGo.`);
      expect(result.status).toBe("invalid");
      expect(result.request).toBe("Go.");
      expect(result.issues).toEqual([
        {
          path: "",
          message: `The <context> block must be a YAML mapping with version, project and conventions, not ${shown}.`,
          line: 2,
        },
      ]);
    });

    it("names the last YAML line, not the closing tag, for an error at the end of the YAML", () => {
      const result = refused("<context>\nproject:\n  path: [x\n</context>\nGo.");
      expect(result.issues[0]?.line).toBe(3);
    });

    it("reports a block over the size limit as not closed within it", () => {
      const prompt = `<context>\nproject:\n  summary: ${"x".repeat(70_000)}\n</context>\nGo.`;
      const result = refused(prompt);
      expect(result.status).toBe("invalid");
      expect(result.request).toBe(prompt);
      expect(result.issues[0]?.message).toBe(
        "The <context> block has no closing </context> line within 65536 bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.",
      );
    });

    it("reports a block over a smaller maxBytes as too large", () => {
      const result = refused(bare(MINIMAL), { maxBytes: 40 });
      expect(result.status).toBe("invalid");
      expect(result.issues[0]?.message).toBe(
        "The <context> block has no closing </context> line within 40 bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.",
      );
    });

    it("refuses a 10 MB prompt with no closing line by the size limit (its time is in bench/)", () => {
      const prompt = `<context>\n${"a: b\n".repeat(2_000_000)}`;
      expect(refused(prompt).issues).toEqual([
        {
          path: "",
          message:
            "The <context> block has no closing </context> line within 65536 bytes: it is not closed, or too large. Close it with a line containing only </context>, and keep it short.",
          line: 1,
        },
      ]);
    });
  });

  describe("summary length", () => {
    // One token per short English word for the approximate tokenizer (and for o200k).
    const summary = (words: number) => "alpha ".repeat(words).trimEnd();

    it("warns when the summary is over 200 tokens and quotes the 50-100 token target", () => {
      const result = found(
        bare(`project:\n  path: /x\n  stack: y\nconventions:\n  summary: ${summary(250)}\n`),
      );
      expect(result.warning).toBe(
        "conventions.summary is 250 tokens (approximate count), over Context Protocol v1's maximum of 200; the target is 50-100 tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.",
      );
    });

    it("does not warn at 200 tokens", () => {
      const result = found(
        bare(`project:\n  path: /x\n  stack: y\nconventions:\n  summary: ${summary(200)}\n`),
      );
      expect(result).not.toHaveProperty("warning");
    });

    it("counts with the tokenizer it is given", () => {
      const perCharacter: Tokenizer = {
        name: "per-character",
        count: (text) => text.length,
        truncate: (text, maxTokens) => text.slice(0, maxTokens),
      };
      const result = found(bare(MINIMAL.replace("Strict TypeScript.", "x".repeat(201))), {
        tokenizer: perCharacter,
      });
      expect(result.warning).toBe(
        "conventions.summary is 201 tokens (per-character count), over Context Protocol v1's maximum of 200; the target is 50-100 tokens. Keep the conventions that matter for this task and leave the rest to conventions.fullPath.",
      );
    });
  });

  it.each([
    [undefined, "prompt", "Invalid prompt: expected a string, got undefined."],
    [null, "prompt", "Invalid prompt: expected a string, got null."],
    [42, "prompt", "Invalid prompt: expected a string, got a number (42)."],
    [["<context>"], "prompt", "Invalid prompt: expected a string, got an array."],
  ])("throws ArgumentError for the prompt %j", (prompt, argument, message) => {
    expect(() => parseContextBlock(prompt as unknown as string)).toThrow(message);
    expect(() => parseContextBlock(prompt as unknown as string)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", argument }),
    );
  });

  it.each([
    [{ maxBytes: -1 }, "maxBytes"],
    [{ maxBytes: 1.5 }, "maxBytes"],
    [{ maxBytes: "65536" }, "maxBytes"],
    [{ maxDepth: 0 }, "maxDepth"],
    [{ maxDepth: Number.NaN }, "maxDepth"],
    [{ tokenizer: {} }, "tokenizer"],
    [{ tokenizer: "o200k" }, "tokenizer"],
  ])("throws ArgumentError for the options %j, whatever the prompt", (options, argument) => {
    for (const prompt of ["no block", bare(MINIMAL)]) {
      expect(() => parseContextBlock(prompt, options as ParseContextBlockOptions)).toThrow(
        expect.objectContaining({ name: "ArgumentError", code: "INVALID_ARGUMENT", argument }),
      );
    }
    expect(() => parseContextBlock("x", options as ParseContextBlockOptions)).toThrow(
      ArgumentError,
    );
  });

  it("throws ArgumentError for options that are not an object", () => {
    expect(() => parseContextBlock("x", null as unknown as ParseContextBlockOptions)).toThrow(
      "Invalid options: expected an object, got null.",
    );
  });

  it("refuses a 1 MB key and a 10 000-deep block with their lines", () => {
    const longKey = refused(bare(`${"k".repeat(1_000_000)}: 1\n`), { maxBytes: 2_000_000 });
    expect(longKey.issues[0]?.message).toContain("Keep keys shorter than 1024 characters.");
    expect(longKey.issues[0]?.line).toBe(2);
    const deep = refused(bare(`a: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`));
    expect(deep.issues).toEqual([
      {
        path: "",
        message: "Mappings and sequences nest deeper than 32 levels. Flatten the structure.",
        line: 2,
      },
    ]);
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
        expect(prompt.includes(result.request)).toBe(true);
        expect("block" in result).toBe(result.status === "found");
        expect("issues" in result).toBe(
          result.status === "invalid" || result.status === "unsupported-version",
        );
        if (result.status === "missing") expect(result.request).toBe(prompt);
      }),
      { numRuns: 2000 },
    );
  });
});
