/**
 * Context Protocol v1 blocks, and the receiver's fallback to the project files. See
 * https://github.com/task-context/task-context/blob/main/docs/context-protocol.md.
 * @module
 */
export { ContextPathOutsideProjectError } from "../errors/context-path-outside-project-error.ts";
export { InvalidContextBlockError } from "../errors/invalid-context-block-error.ts";
export { type ContextBlock, contextBlockSchema } from "../schemas/context-block.ts";
export {
  type ContextBlockIssue,
  type ContextBlockStatus,
  type ParseContextBlockOptions,
  type ParsedContextBlock,
  parseContextBlock,
} from "./parse-context-block.ts";
export {
  type FullConventions,
  type ReadFullConventionsOptions,
  readFullConventions,
} from "./read-full-conventions.ts";
export { renderContextBlock } from "./render-context-block.ts";
export {
  type ResolveContextBlockOptions,
  type ResolvedContext,
  type ResolvedConventions,
  type ResolvedProject,
  resolveContextBlock,
} from "./resolve-context-block.ts";
