import type { EvalCheck, EvalTask } from "./eval-spec.ts";
import { checkJsonSchema } from "./json-schema-check.ts";
import type { RecipientAnswer } from "./recipient.ts";
import type { CheckOutcome } from "./trial-record.ts";

/** Asks the judge `judge` the prompt; the runner counts the call against the budget. */
export type AskJudge = (judge: string, prompt: string) => Promise<RecipientAnswer>;

/** The prompt a judge receives: the rubric, the task, the answer, and how to reply. */
export function judgePrompt(rubric: string, task: EvalTask, answer: string): string {
  return [
    "You are grading an answer against a rubric.",
    `Rubric: ${rubric}`,
    `Task: ${task.prompt}`,
    `Answer:\n${answer}`,
    "Reply with PASS or FAIL on the first line, then one sentence why.",
  ].join("\n\n");
}

/** Whether a judge's reply passes: its first word is PASS (in capitals). */
export function judgePassed(reply: string): boolean {
  return /^\W*PASS\b/.test(reply.trim());
}

async function runCheck(
  check: EvalCheck,
  task: EvalTask,
  answer: string,
  askJudge: AskJudge,
): Promise<CheckOutcome & { tokens?: number }> {
  if ("exact" in check) {
    const pass = answer.trim() === check.exact.trim();
    return pass ? { check: "exact", pass } : { check: "exact", pass, note: "the answer differs" };
  }
  if ("regex" in check) {
    const pass = new RegExp(check.regex, check.flags).test(answer);
    return pass
      ? { check: "regex", pass }
      : { check: "regex", pass, note: `no match for /${check.regex}/` };
  }
  if ("json_schema" in check) {
    let value: unknown;
    try {
      value = JSON.parse(answer);
    } catch {
      return { check: "json_schema", pass: false, note: "the answer is not JSON" };
    }
    return { check: "json_schema", ...checkJsonSchema(check.json_schema, value) };
  }
  const reply = await askJudge(check.judge, judgePrompt(check.rubric, task, answer));
  const pass = judgePassed(reply.text);
  const outcome: CheckOutcome & { tokens?: number } = { check: `judge:${check.judge}`, pass };
  if (!pass) outcome.note = reply.text.trim().split("\n")[0]?.slice(0, 200) ?? "";
  if (reply.tokens !== undefined) outcome.tokens = reply.tokens;
  return outcome;
}

/**
 * Runs a task's checks on an answer, in order: the outcomes and the judges' tokens. A trial
 * passes when every check passes.
 */
export async function runChecks(
  task: EvalTask,
  answer: string,
  askJudge: AskJudge,
): Promise<{ outcomes: CheckOutcome[]; judgeTokens?: number }> {
  const outcomes: CheckOutcome[] = [];
  let judgeTokens: number | undefined;
  for (const check of task.checks) {
    const { tokens, ...outcome } = await runCheck(check, task, answer, askJudge);
    if (tokens !== undefined) judgeTokens = (judgeTokens ?? 0) + tokens;
    outcomes.push(outcome);
  }
  return judgeTokens === undefined ? { outcomes } : { outcomes, judgeTokens };
}
