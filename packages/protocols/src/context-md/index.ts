/**
 * CONTEXT.md: the template an agent fills in, and a linter that checks it before the agent
 * delegates with it. See https://github.com/task-context/task-context/blob/main/docs/getting-started.md.
 *
 * @module
 */
export {
  type ContextMdIssue,
  type ContextMdLintResult,
  type LintContextMdOptions,
  lintContextMd,
} from "./lint-context-md.ts";
export { CONTEXT_MD_TEMPLATE } from "./template.ts";
