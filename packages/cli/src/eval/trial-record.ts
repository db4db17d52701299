import { z } from "zod";

/** One check's outcome in a trial. */
export const checkOutcomeSchema = z.object({
  /** `exact`, `regex`, `json_schema` or `judge:<name>`. */
  check: z.string(),
  pass: z.boolean(),
  /** Why it failed, briefly (the JSON Schema's first issue, the judge's first line). */
  note: z.string().optional(),
});

/**
 * One trial as a line of the results file. `key` is the SHA-256 of everything the trial depends
 * on — the recipient's name, the task as the spec writes it (prompt, inputs' hashes, checks), the
 * condition and the hash of its CONTEXT.md, the trial's number and the spec's seed — so a run
 * skips the trials already recorded and re-runs those whose task, context or inputs changed.
 */
export const trialRecordSchema = z.object({
  version: z.literal(1),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  recipient: z.string(),
  task: z.string(),
  condition: z.string(),
  trial: z.int().min(0),
  pass: z.boolean(),
  checks: z.array(checkOutcomeSchema),
  /** Tokens the recipient reported, when it did. */
  tokens: z.number().optional(),
  /** Tokens the judges reported for this trial. */
  judge_tokens: z.number().optional(),
  /** Milliseconds the recipient took. */
  ms: z.number(),
  answer: z.string(),
  /** Secrets redacted from the prompt and text inputs before they were sent. */
  redactions: z.int().min(0),
  /** The recipient (or a judge) threw: not counted in the pass rate, run again on resume. */
  error: z.string().optional(),
});

/** One trial's record. */
export type TrialRecord = z.infer<typeof trialRecordSchema>;
/** One check's outcome. */
export type CheckOutcome = z.infer<typeof checkOutcomeSchema>;
