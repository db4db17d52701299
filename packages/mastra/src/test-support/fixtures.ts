// Test support: the CONTEXT.md the tests deliver (the adapters' shared one), its views, and a team
// of a supervisor and two sub-agents on stand-in models.
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { deliveredTaskContext } from "../delivered-task-context.ts";
import { standInModel, type Turn } from "./stand-in-model.ts";

export {
  CONTEXT,
  MEDIA_SECTIONS,
  MEDIA_VIEW,
  sha256,
} from "@task-context/adapter-test-kit";

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
