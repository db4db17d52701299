// The media tools as most tests start from them. Kept out of fixtures.ts, which the benchmarks
// import: they measure the built package and must not load a second copy from src/.
import { type CreateMediaToolsOptions, createMediaTools, type MediaModels } from "../index.ts";
import { CONTEXT, recordingWorkspace } from "./fixtures.ts";

/**
 * The media tools over a recording workspace that holds CONTEXT.md ({@link CONTEXT}) and `files`,
 * with `models` and any further options; returned with what the tests look at afterwards.
 */
export function toolsOver<Models extends MediaModels>(
  files: Record<string, string | Uint8Array>,
  models: Models,
  options: Omit<CreateMediaToolsOptions, "workspace" | "models"> = {},
) {
  const { workspace, written, reads } = recordingWorkspace({ "CONTEXT.md": CONTEXT, ...files });
  const tools = createMediaTools({ workspace, models, ...options });
  return { tools, models, workspace, written, reads };
}
