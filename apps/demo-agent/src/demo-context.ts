import type { Tokenizer } from "@task-context/core";
import type { DemoModels } from "./models.ts";
import type { Progress } from "./progress.ts";
import type { Trace } from "./trace.ts";

/** One row of the closing table: what a recipient received. */
export interface Recipient {
  /** Who received it, e.g. `read_media → vision model`. */
  recipient: string;
  /** How it was reached: `external model`, `subagent (in process)`, `remote agent`, … */
  kind: string;
  /** The sha256 of the task context it received (hex); undefined when it received none. */
  contextSha256: string | undefined;
  /** o200k tokens of everything it received as text. */
  tokens: number;
  /** Whether its task context was cut to the limit; undefined when it received none. */
  truncated: boolean | undefined;
  /** How many secrets were redacted from its task context, when any were. */
  secretsRedacted?: number;
  /** The view of CONTEXT.md it received, when it received only some sections (e.g. `media`). */
  view?: string;
  /** o200k tokens it would have received with the whole CONTEXT.md instead of its view. */
  tokensWithoutViews?: number;
}

/** What the steps share. */
export interface DemoContext {
  /** The output folder: the workspace, the subagents, the database, the trace. */
  outputRoot: string;
  /** The main agent's workspace, where CONTEXT.md is written. */
  workspaceRoot: string;
  /** The folder of the files the demo ships (the screenshot). */
  assetsRoot: string;
  models: DemoModels;
  progress: Progress;
  trace: Trace;
  /** The exact o200k tokenizer, for the token counts. */
  tokenizer: Tokenizer;
  /** Every recipient so far, in order. */
  recipients: Recipient[];
  /** Keep the delivery service up after the demo (`--keep-serving`): step 4 leaves it in `serving`. */
  keepServing: boolean;
  /** The delivery service still running after step 4, when `keepServing`. */
  serving?: ServingRun;
}

/** The delivery service kept up after the demo, and the run page of its run. */
export interface ServingRun {
  /** The run page's view link (`GET /runs/{run_id}?view=…`). */
  viewUrl: string;
  /** Stops the service. */
  close(): Promise<void>;
}
