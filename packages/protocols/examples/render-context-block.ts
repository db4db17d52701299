// Sending a Context Protocol v1 block at the start of a subagent's prompt.
import { renderContextBlock } from "@task-context/protocols/context-block";

const block = renderContextBlock({
  version: 1,
  project: { path: "/srv/app", stack: "hono", commands: { test: "npm test" } },
  conventions: {
    summary: "ESM only. Zod for validation.\nHono routes in src/routes/.\n",
    fullPath: "/srv/app/docs/CONVENTIONS.md",
  },
});
const prompt = `${block}\n\nAdd a health route.`;
console.log(block);
// <context>
// version: 1
// project:
//   path: /srv/app
//   stack: hono
//   commands:
//     test: npm test
// conventions:
//   summary: |
//     ESM only. Zod for validation.
//     Hono routes in src/routes/.
//   fullPath: /srv/app/docs/CONVENTIONS.md
// </context>
