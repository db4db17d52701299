/** A file the task gives its recipient, read from the spec's folder. */
export interface RecipientInput {
  /** The path as the spec names it, e.g. `launch-screenshot.png`. */
  name: string;
  /** The file's bytes (text files with their secrets redacted). */
  data: Uint8Array;
  /** The file as UTF-8 text with secrets redacted, when it is text (no NUL, valid UTF-8). */
  text?: string;
}

/** What a recipient is asked, under one condition, in one trial. */
export interface RecipientRequest {
  /** The recipient's (or judge's) name in the spec. */
  recipient: string;
  /** The task's id. */
  task: string;
  /** `none`, `full` or `view:<name>`. */
  condition: string;
  /** 0-based trial number. */
  trial: number;
  /** The task's prompt, secrets redacted. */
  prompt: string;
  inputs: RecipientInput[];
  /**
   * A temporary copy of the workspace prepared for the condition: without CONTEXT.md for `none`,
   * with it for `full`, with the view's text as CONTEXT.md for `view:<name>`. A real recipient
   * reads the context from here exactly as in production (`loadTaskContext(workspace)`).
   * Removed after the trial.
   */
  workspace: string;
  /** A number fixed by the trial (its key): a stand-in that draws from it is reproducible. */
  seed: number;
}

/** A recipient's answer: its text, and the tokens it spent when it knows them. */
export interface RecipientAnswer {
  text: string;
  tokens?: number;
}

/**
 * A recipient of the task context under evaluation: a media tool, a subagent runner, a model
 * wrapped with the middleware — anything that takes a prompt and a workspace and answers.
 */
export type Recipient = (request: RecipientRequest) => Promise<RecipientAnswer>;
