export { ContextPathOutsideProjectError } from "../errors/context-path-outside-project-error.ts";
export { InvalidContextBlockError } from "../errors/invalid-context-block-error.ts";
export {
  type InvalidYamlDetails,
  InvalidYamlError,
  type InvalidYamlKind,
} from "../errors/invalid-yaml-error.ts";
export { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
export type { ContextBlockIssue } from "./context-block-issue.ts";
export {
  CONTEXT_BLOCK_VERSION,
  type ContextBlockStatus,
  type ParseContextBlockOptions,
  type ParsedContextBlock,
  parseContextBlock,
  SUMMARY_MAX_TOKENS,
  SUMMARY_TARGET_TOKENS,
} from "./parse-context-block.ts";
export {
  CONVENTIONS_PATH,
  type FullConventions,
  type ReadFullConventionsOptions,
  readFullConventions,
} from "./read-full-conventions.ts";
export { DEFAULT_MAX_FILE_BYTES } from "./read-text-file.ts";
export { renderContextBlock } from "./render-context-block.ts";
export {
  PROJECT_JSON_PATH,
  type ResolveContextBlockOptions,
  type ResolvedContext,
  type ResolvedConventions,
  type ResolvedProject,
  resolveContextBlock,
} from "./resolve-context-block.ts";
export {
  DEFAULT_MAX_YAML_BYTES,
  DEFAULT_MAX_YAML_DEPTH,
  type ParseUntrustedYamlOptions,
  parseUntrustedYaml,
} from "./safe-yaml.ts";
