export {
  type ContextMdIssue,
  type ContextMdLintResult,
  type LintContextMdOptions,
  lintContextMd,
} from "./lint-context-md.ts";
export { CONTEXT_MD_SECTIONS, CONTEXT_MD_TEMPLATE } from "./template.ts";
