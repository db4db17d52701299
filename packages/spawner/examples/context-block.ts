// Project context for every subagent, as a Context Protocol v1 block at the start of its prompt.
import { type SubagentRunner, spawnSubagents } from "@task-context/spawner";

declare const runner: SubagentRunner;

//#region contextBlock
await spawnSubagents(
  "/srv/agents/run-42",
  [
    {
      id: "us-003",
      subagentType: "implement",
      prompt: "Implement US-003: Add print preview modal",
    },
  ],
  {
    runner,
    project: {
      version: 1,
      project: { path: "/srv/lumen", stack: "nextjs-prisma", commands: { test: "npm test" } },
      conventions: {
        summary: "TypeScript strict. Tailwind + shadcn/ui. Zod validation on all inputs.",
        fullPath: "/srv/lumen/docs/CONVENTIONS.md",
      },
      currentWork: { story: "US-003 Add print preview modal", branch: "feature/print-templates" },
    },
  },
);
// The runner receives "<context>\nversion: 1\nproject:\n  path: /srv/lumen\n…</context>\n\nImplement US-003: …"
//#endregion
