import { type ContextBlock, renderContextBlock } from "@task-context/protocols/context-block";

/** The block shown to agents as an example of Context Protocol v1. */
export const EXAMPLE_CONTEXT_BLOCK: ContextBlock = {
  version: 1,
  project: {
    path: "/Users/dev/code/project",
    stack: "nextjs-prisma",
    commands: { test: "npm test", lint: "npm run lint" },
  },
  conventions: {
    summary:
      "TypeScript strict. Tailwind + shadcn/ui. App Router.\nServer components by default. Prisma ORM. Zod validation on all inputs.\n",
    fullPath: "/Users/dev/code/project/docs/CONVENTIONS.md",
  },
  currentWork: {
    prd: "print-templates",
    story: "US-003 Add print preview modal",
    branch: "feature/print-templates",
  },
};

/** The Context Protocol v1 guidelines for primary agents that delegate to subagents. */
export function renderContextProtocolSection(): string {
  return [
    "## Passing project context to subagents (Context Protocol v1)",
    "",
    "Start every subagent prompt with a `<context>` block, then the request:",
    "",
    "```yaml",
    renderContextBlock(EXAMPLE_CONTEXT_BLOCK),
    "```",
    "",
    "- Read docs/project.json and docs/CONVENTIONS.md once, at the start of your session.",
    "- `version: 1`, `project.path` (absolute), `project.stack` and `conventions.summary` are required; `project.commands`, `conventions.fullPath` and `currentWork` (prd, story, branch) are optional.",
    "- Write `conventions.summary` for the subagent's task: 2-5 sentences, 50-100 tokens, never more than 200. Include language and framework versions, the UI library, directory conventions, key patterns and the testing approach; leave out full pattern lists, code examples and anything irrelevant to the task.",
    "- Include `conventions.fullPath` so the subagent can read the full conventions for edge cases.",
    "- Put the block first: nothing may come before `<context>`.",
  ].join("\n");
}
