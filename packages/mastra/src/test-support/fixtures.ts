// Test support: the CONTEXT.md the tests deliver, its views, and a team of a supervisor and two
// sub-agents on stand-in models.
import { createHash } from "node:crypto";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { deliveredTaskContext } from "../delivered-task-context.ts";
import { standInModel, type Turn } from "./stand-in-model.ts";

const BUILDING = "## What we are building\nLumen, a note-taking app.";
const TERMS = "## Key terminology\n- **Vault**: a folder of notes.";
const BRAND = "## Visual and brand guidelines\nCalm blues, no exclamation marks.";

/** A CONTEXT.md with the headings the view presets name, and one they leave out. */
export const CONTEXT = [
  "# Task context",
  BUILDING,
  TERMS,
  BRAND,
  "## Other details\nRun pnpm test before a commit.",
].join("\n\n");

/** What the view `CONTEXT_VIEW_PRESETS.media` delivers of {@link CONTEXT}. */
export const MEDIA_VIEW = [BUILDING, TERMS, BRAND].join("\n\n");

/** The sections of the media view, as a receipt names them. */
export const MEDIA_SECTIONS = [
  "What we are building",
  "Key terminology",
  "Visual and brand guidelines",
];

/** Hex SHA-256 of `text`'s UTF-8 bytes: a receipt. */
export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * The stand-in as an agent's model: the AI SDK's model interface, whose types Mastra bundles a copy
 * of (the same interface, types TypeScript does not unify).
 */
type AgentModel = ConstructorParameters<typeof Agent>[0]["model"];

/**
 * An illustrator sub-agent that first calls its tool `look-up` (which answers what the delegation
 * put in its request context), then answers; and a supervisor that delegates `call` to it, then
 * answers. `seen` collects what the tool read.
 */
export function team(delegation: Turn, make: typeof Agent = Agent) {
  const seen: unknown[] = [];
  const lookUp = createTool({
    id: "look-up",
    description: "Reads the task context delivered.",
    inputSchema: z.object({}),
    execute: async (_input, context) => {
      seen.push(deliveredTaskContext(context?.requestContext));
      return { ok: true };
    },
  });
  const illustratorModel = standInModel(
    { tool: "look-up", input: {} },
    { text: "A calm blue vault." },
  );
  const illustrator = new make({
    id: "illustrator",
    name: "Illustrator",
    description: "Describes images.",
    instructions: "You describe images.",
    model: illustratorModel as unknown as AgentModel,
    tools: { "look-up": lookUp },
  });
  const supervisorModel = standInModel(delegation, { text: "Done." });
  const supervisor = new make({
    id: "supervisor",
    name: "Supervisor",
    instructions: "Ask the illustrator.",
    model: supervisorModel as unknown as AgentModel,
    agents: { illustrator },
  });
  return { supervisor, supervisorModel, illustrator, illustratorModel, seen };
}
