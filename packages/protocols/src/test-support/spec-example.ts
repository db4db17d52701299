// Spec 004's "Context Block Format" example, shared by the parse and render tests.
import type { ContextBlock } from "../schemas/context-block.ts";

/** The example block of spec 004's "Context Block Format" section, as an object. */
export const SPEC_BLOCK: ContextBlock = {
  version: 1,
  project: {
    path: "/Users/dev/code/my-app",
    stack: "nextjs-prisma",
    commands: {
      dev: "npm run dev",
      test: "npm test",
      build: "npm run build",
      lint: "npm run lint",
    },
  },
  conventions: {
    summary:
      "TypeScript strict mode. Tailwind CSS with shadcn/ui components.\nAPI routes in app/api/. Server actions in lib/actions/.\nPrisma for database. Zod for validation.\n",
    fullPath: "/Users/dev/code/my-app/docs/CONVENTIONS.md",
  },
  currentWork: {
    prd: "Add dark mode support",
    story: "Create theme toggle component",
    branch: "feature/dark-mode",
  },
};

/** The same example as the spec prints it, verbatim. */
export const SPEC_TEXT = `<context>
version: 1
project:
  path: /Users/dev/code/my-app
  stack: nextjs-prisma
  commands:
    dev: npm run dev
    test: npm test
    build: npm run build
    lint: npm run lint
conventions:
  summary: |
    TypeScript strict mode. Tailwind CSS with shadcn/ui components.
    API routes in app/api/. Server actions in lib/actions/.
    Prisma for database. Zod for validation.
  fullPath: /Users/dev/code/my-app/docs/CONVENTIONS.md
currentWork:
  prd: Add dark mode support
  story: Create theme toggle component
  branch: feature/dark-mode
</context>`;
