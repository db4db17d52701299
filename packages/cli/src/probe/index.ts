/**
 * `task-context doctor --probe` as a library: plants a canary in a throwaway copy of the
 * workspace's CONTEXT.md, sends a request down each delivery path and reports whether the
 * recipient received it verbatim. See https://github.com/task-context/task-context/blob/main/docs/cli.md.
 *
 * @module
 */
export { AI_SDK_PATHS, type AiSdkPathOptions, aiSdkPaths } from "./ai-sdk-paths.ts";
export {
  childProcessSubagentPath,
  functionRunnerSubagentPath,
  mcpServerPath,
  PROBE_REQUEST,
} from "./built-in-paths.ts";
export { renderProbeTable, renderSkippedPaths } from "./format-probe-table.ts";
export {
  MEDIA_TOOL_PATHS,
  type MediaToolPathOptions,
  type PosedModel,
  type PosedModels,
} from "./media-tool-paths.ts";
export { type CanaryWorkspace, plantCanary } from "./plant-canary.ts";
export {
  judgeDelivery,
  type ProbeDelivery,
  type ProbePath,
  type ProbePathsOptions,
  type ProbeResult,
  probePassed,
  probePaths,
  type SkippedPaths,
} from "./probe-paths.ts";
export {
  QUOTE_BACK_REQUEST,
  type QuoteBackCost,
  type QuoteBackOptions,
  quoteBackCost,
  quoteBackPath,
} from "./quote-back.ts";
export {
  A2A_PATH,
  probeRun,
  type ServicePathOptions,
  type ServicePaths,
  servicePaths,
  WORK_ITEM_PATH,
} from "./service-paths.ts";
