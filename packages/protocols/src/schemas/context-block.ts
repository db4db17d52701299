import * as z from "zod/mini";

/**
 * A name that is not `__proto__`. zod's records skip a `__proto__` key without checking it (so
 * that it cannot replace the prototype of the parsed object); the pattern makes the published
 * JSON Schema refuse it too, and `validate()` reports it, so every validator gives one verdict.
 */
const name = z.string().check(z.regex(/^(?!__proto__$)/, 'must not be "__proto__"'));

/**
 * Context Protocol v1: the YAML block a primary agent puts in `<context>` tags at the start of a
 * subagent's prompt. Field names are the protocol's (camelCase).
 */
export const contextBlockSchema = z
  .strictObject({
    version: z
      .literal(1)
      .check(
        z.describe(
          "Protocol version, 1. Senders must write it; receivers treat a block without it as version 1",
        ),
      ),
    project: z.strictObject({
      path: z
        .string()
        .check(
          z.regex(
            /^(\/|[A-Za-z]:[\\/]|\\\\)/,
            "must be an absolute path (such as /Users/dev/code/my-app or C:\\code\\my-app)",
          ),
          z.describe("The absolute path of the project root, e.g. /Users/dev/code/my-app"),
        ),
      stack: z
        .string()
        .check(
          z.minLength(1),
          z.describe("The stack identifier from project.json, e.g. nextjs-prisma"),
        ),
      commands: z.optional(
        z
          .record(name, z.string())
          .check(
            z.describe(
              'Commands from project.json (dev, test, build, lint, …), by name; "__proto__" is not a name',
            ),
          ),
      ),
    }),
    conventions: z.strictObject({
      summary: z
        .string()
        .check(
          z.minLength(1),
          z.describe(
            "A 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200)",
          ),
        ),
      fullPath: z.optional(
        z
          .string()
          .check(
            z.minLength(1),
            z.describe("The path of the full CONVENTIONS.md, for deeper reads"),
          ),
      ),
    }),
    currentWork: z.optional(
      z.strictObject({
        prd: z.optional(z.string().check(z.describe("The current PRD's name (in PRD mode)"))),
        story: z.optional(z.string().check(z.describe("The story being implemented"))),
        branch: z.optional(z.string().check(z.describe("The current git branch"))),
      }),
    ),
  })
  .check(
    z.meta({
      title: "Context Protocol v1 block",
      description:
        'What a sender writes between <context> and </context> at the start of a subagent prompt. This schema is the sender\'s contract and requires "version"; a receiver is lenient and reads a block without "version" as version 1. Command names may not be "__proto__".',
    }),
  );

/** A Context Protocol v1 block. */
export type ContextBlock = z.infer<typeof contextBlockSchema>;
