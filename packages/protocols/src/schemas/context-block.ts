import { z } from "zod";

/** An absolute POSIX (`/…`) or Windows (`C:\…`, `\\server\…`) path. */
const absolutePath = z
  .string()
  .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, "must be an absolute path (spec 004: project root)");

/**
 * Context Protocol v1 (spec 004): the YAML block a primary agent puts in `<context>` tags at the
 * start of a subagent's prompt. Field names are the spec's (camelCase).
 */
export const contextBlockSchema = z
  .strictObject({
    version: z.literal(1).describe("Protocol version (currently 1); a block without it is v1"),
    project: z.strictObject({
      path: absolutePath.describe("Absolute path to project root"),
      stack: z.string().min(1).describe("Stack identifier from project.json"),
      commands: z
        .record(z.string(), z.string())
        .optional()
        .describe("Commands from project.json (dev, test, build, lint, …)"),
    }),
    conventions: z.strictObject({
      summary: z
        .string()
        .min(1)
        .describe("2-5 sentence summary of key conventions (target 50-100 tokens, max 200)"),
      fullPath: z
        .string()
        .min(1)
        .optional()
        .describe("Path to full CONVENTIONS.md for deeper reads"),
    }),
    currentWork: z
      .strictObject({
        prd: z.string().optional().describe("Current PRD name (if in PRD mode)"),
        story: z.string().optional().describe("Current story being implemented"),
        branch: z.string().optional().describe("Current git branch"),
      })
      .optional(),
  })
  .meta({ title: "Context Protocol v1 block" });

/** A Context Protocol v1 block. */
export type ContextBlock = z.infer<typeof contextBlockSchema>;
