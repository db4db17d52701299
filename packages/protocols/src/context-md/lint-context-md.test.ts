import { CONTEXT_MD_TEMPLATE, lintContextMd } from "@task-context/protocols/context-md";
import { describe, expect, it } from "vitest";

const GOOD = `# Task context

## What we are building
Lumen, a note-taking app for researchers.

## Key terminology
- **Lumen**: the product; "LUMEN" on screenshots is the wordmark.

## Visual and brand guidelines
Deep teal, warm white.

## Other details
Audience: graduate students.
`;

describe("lintContextMd", () => {
  it("passes a CONTEXT.md with every section", () => {
    expect(lintContextMd(GOOD)).toEqual({ ok: true, issues: [] });
  });

  it("accepts common heading variants", () => {
    const text = "## What we're doing\nx\n## Glossary\ny\n## Brand\nz\n## Notes\nw\n";
    expect(lintContextMd(text).issues).toEqual([]);
  });

  it("reports the template's placeholders but no missing sections", () => {
    const result = lintContextMd(CONTEXT_MD_TEMPLATE);
    expect(result.ok).toBe(true);
    expect(result.issues.map((issue) => [issue.rule, issue.line])).toEqual([
      ["placeholder", 4],
      ["placeholder", 7],
      ["placeholder", 10],
      ["placeholder", 13],
    ]);
  });

  it("errors on an empty file", () => {
    expect(lintContextMd(" \n\t")).toEqual({
      ok: false,
      issues: [
        {
          rule: "empty",
          severity: "error",
          message:
            "CONTEXT.md is empty: write what we are building, key terminology and other details (see the template).",
        },
      ],
    });
  });

  it("warns about missing required sections and notes optional ones", () => {
    const result = lintContextMd("Just some notes about Lumen.");
    expect(result.ok).toBe(true);
    expect(result.issues.map((issue) => [issue.rule, issue.severity])).toEqual([
      ["missing-section", "warning"],
      ["missing-section", "warning"],
      ["missing-section", "info"],
      ["missing-section", "info"],
    ]);
    expect(result.issues[0]?.message).toBe(
      'No "What we are building" section: recipients need it to understand the task (add "## What we are building").',
    );
  });

  it("errors when the file is over the delivery limit", () => {
    const result = lintContextMd(GOOD + "x".repeat(10_000));
    expect(result.ok).toBe(false);
    expect(result.issues).toContainEqual({
      rule: "over-limit",
      severity: "error",
      message: `CONTEXT.md has ${GOOD.length + 10_000} characters; only 10000 are delivered, so the rest would be cut. Shorten it by ${GOOD.length} characters.`,
    });
    expect(lintContextMd(GOOD, { maxChars: 100 }).ok).toBe(false);
  });

  it("counts characters as the loader delivers them: a BOM and surrounding whitespace are not cut", () => {
    const body = GOOD.trim();
    const limit = { maxChars: body.length };
    expect(lintContextMd(`\uFEFF\n ${body}\n\n`, limit).ok).toBe(true);
    expect(lintContextMd(`${body}x\n`, limit).issues).toContainEqual({
      rule: "over-limit",
      severity: "error",
      message: `CONTEXT.md has ${body.length + 1} characters; only ${body.length} are delivered, so the rest would be cut. Shorten it by 1 characters.`,
    });
  });

  it.each([
    ["OPENAI_KEY: sk-proj-abcdefghijklmnopqrstuvwxyz0123", "an OpenAI API key"],
    ["key sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "an Anthropic API key"],
    ["aws AKIAIOSFODNN7EXAMPLE", "an AWS access key id"],
    ["ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", "a GitHub token"],
    ["AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", "a Google API key"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----", "a private key"],
    ["password = hunter2hunter2hunter2", "a password"],
    ["api_key: 0123456789abcdef0123", "a credential"],
    ["postgres://app:hunter2hunter2@db/app", "a password in a URL"],
  ])("errors on a secret: %s", (line, kind) => {
    const result = lintContextMd(`${GOOD}\n${line}\n`);
    expect(result.ok).toBe(false);
    const secret = result.issues.find((issue) => issue.rule === "secret");
    expect(secret?.line).toBe(GOOD.split("\n").length + 1);
    expect(secret?.message).toContain(`This looks like ${kind} (`);
    expect(secret?.message).not.toContain(line.slice(8, 20));
  });

  it("reports every secret core's detector finds, each with its line and a masked value", () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(4)}`;
    const result = lintContextMd(
      `${GOOD}\nbot ${token} and https://ada:pa55word1@x.dev\n\nsk-ant-${"x".repeat(30)}`,
    );
    const line = GOOD.split("\n").length + 1;
    const advice =
      "CONTEXT.md is sent to every tool and subagent: remove it and pass credentials another way.";
    expect(result.issues.filter((issue) => issue.rule === "secret")).toStrictEqual([
      {
        rule: "secret",
        severity: "error",
        message: `This looks like a GitHub token (ghp_…e5). ${advice}`,
        line,
      },
      {
        rule: "secret",
        severity: "error",
        message: `This looks like a password in a URL (pa55…d1). ${advice}`,
        line,
      },
      {
        rule: "secret",
        severity: "error",
        message: `This looks like an Anthropic API key (sk-a…xx). ${advice}`,
        line: line + 2,
      },
    ]);
    expect(result.ok).toBe(false);
  });

  it("does not flag ordinary prose about keys and passwords", () => {
    const text = `${GOOD}\nUsers reset their password from the settings page. The API key lives in the vault.\n`;
    expect(lintContextMd(text)).toEqual({ ok: true, issues: [] });
  });
});
