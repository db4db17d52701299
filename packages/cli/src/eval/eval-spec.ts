import { CONTEXT_VIEW_PRESETS, type ContextView } from "@task-context/core";
import { z } from "zod";
import { parseYamlSource } from "../validate/yaml-source.ts";
import { EvaluationError } from "./evaluation-error.ts";
import { compileJsonSchema } from "./json-schema-check.ts";

/** Names of recipients, judges, tasks and views: a word, so they read well in tables and files. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const name = (what: string) =>
  z
    .string()
    .regex(
      NAME,
      `${what} must start with a letter or digit and hold only letters, digits, ".", "_" and "-"`,
    );

/** How the CLI reaches a recipient: a module (relative to the spec) and its named export. */
const recipientSchema = z.strictObject({
  module: z.string().min(1).optional(),
  export: z.string().min(1).optional(),
});

/** One check of an answer; a trial passes when all of its task's checks pass. */
const checkSchema = z.union([
  z.strictObject({ exact: z.string() }),
  z.strictObject({
    regex: z.string(),
    flags: z
      .string()
      .regex(/^[dgimsuvy]*$/)
      .optional(),
  }),
  z.strictObject({ json_schema: z.record(z.string(), z.unknown()) }),
  z.strictObject({ judge: name("a judge's name"), rubric: z.string().min(1) }),
]);

const taskSchema = z.strictObject({
  id: name("a task's id"),
  prompt: z.string().min(1),
  inputs: z.array(z.string().min(1)).optional(),
  /** The recipients that run the task (default: every recipient): a vision task is not an image model's. */
  recipients: z.array(name("a recipient's name")).min(1).optional(),
  checks: z.array(checkSchema).min(1),
});

const viewSchema = z.strictObject({
  include: z.array(z.string().min(1)).min(1).optional(),
  exclude: z.array(z.string().min(1)).min(1).optional(),
  max_chars: z.int().min(1).optional(),
});

const CONDITION = /^(none|full|view:[A-Za-z0-9][A-Za-z0-9._-]*)$/;

/** The eval spec as written (YAML or JSON), before its names are cross-checked. */
export const evalSpecSchema = z.strictObject({
  workspace: z.string().min(1).optional(),
  recipients: z.record(name("a recipient's name"), recipientSchema),
  judges: z.record(name("a judge's name"), recipientSchema).optional(),
  tasks: z.array(taskSchema).min(1),
  conditions: z
    .array(z.string().regex(CONDITION, 'a condition is "none", "full" or "view:<name>"'))
    .min(1)
    .optional(),
  views: z.record(name("a view's name"), viewSchema).optional(),
  trials: z.int().min(1).max(10_000),
  seed: z.int().min(0).optional(),
  budget: z
    .strictObject({ max_calls: z.int().min(1).optional(), max_tokens: z.int().min(1).optional() })
    .optional(),
  concurrency: z.int().min(1).max(64).optional(),
  rate_limit: z.strictObject({ calls_per_minute: z.number().positive() }).optional(),
});

/** An eval spec: recipients, judges, tasks, conditions, trials, budget, concurrency, rate limit. */
export type EvalSpec = z.infer<typeof evalSpecSchema>;
/** One task of an {@link EvalSpec}. */
export type EvalTask = EvalSpec["tasks"][number];
/** One check of an {@link EvalTask}. */
export type EvalCheck = EvalTask["checks"][number];

/** What a field's problem means for the one who writes the spec. */
const HINTS: Array<[RegExp, string]> = [
  [
    /^recipients$/,
    "name at least one recipient: `recipients: { vision: { module: ./recipients.mjs } }`",
  ],
  [/^tasks$/, "list the tasks: `tasks: [{ id, prompt, checks: [{ regex: … }] }]`"],
  [
    /\.checks\[\d+\]$/,
    "write one of { exact }, { regex, flags? }, { json_schema }, { judge, rubric }",
  ],
  [/^conditions\[\d+\]$/, 'use "none", "full" or "view:<name>"'],
  [/^trials$/, "set trials to a whole number from 1 to 10000"],
];

/** `tasks[0].checks[1]` from a zod path. */
function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    text += typeof key === "number" ? `[${key}]` : `${text === "" ? "" : "."}${String(key)}`;
  }
  return text === "" ? "(the spec)" : text;
}

function invalid(source: string, field: string, problem: string, hint: string): EvaluationError {
  return new EvaluationError({
    code: "EVAL_SPEC_INVALID",
    message: `${source}: ${field}: ${problem}; ${hint}`,
  });
}

/** The first problem zod found, as `field: problem; what to do`. */
function zodProblem(source: string, error: z.ZodError): EvaluationError {
  const issue = error.issues[0] as z.core.$ZodIssue;
  // A check that matched no form: say what the check held instead of each form's complaint.
  const field = fieldPath(issue.path);
  let problem = issue.message;
  if (issue.code === "unrecognized_keys")
    problem = `unknown field ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
  if (issue.code === "invalid_union") problem = "not a check";
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message))
    problem = "required";
  const hint =
    HINTS.find(([pattern]) => pattern.test(field))?.[1] ?? "see docs/eval.md for the spec's fields";
  return invalid(source, field, problem, hint);
}

/** The view a `view:<name>` condition names: the spec's `views`, else a preset. */
export function viewOfCondition(spec: EvalSpec, condition: string): ContextView | undefined {
  if (!condition.startsWith("view:")) return undefined;
  const viewName = condition.slice("view:".length);
  const own = spec.views?.[viewName];
  if (own !== undefined) {
    return {
      name: viewName,
      ...(own.include === undefined ? {} : { include: own.include }),
      ...(own.exclude === undefined ? {} : { exclude: own.exclude }),
      ...(own.max_chars === undefined ? {} : { maxChars: own.max_chars }),
    };
  }
  return (CONTEXT_VIEW_PRESETS as Record<string, ContextView>)[viewName];
}

/** The conditions of a spec: its own, or `none` and `full`. */
export function conditionsOf(spec: EvalSpec): string[] {
  return spec.conditions ?? ["none", "full"];
}

/** Checks what the schema cannot: unique ids, known views and judges, valid patterns and schemas. */
function crossCheck(source: string, spec: EvalSpec): void {
  const seen = new Set<string>();
  spec.tasks.forEach((task, index) => {
    if (seen.has(task.id)) {
      throw invalid(
        source,
        `tasks[${index}].id`,
        `"${task.id}" is used twice`,
        "give every task its own id",
      );
    }
    seen.add(task.id);
    task.recipients?.forEach((recipient, recipientIndex) => {
      if (spec.recipients[recipient] === undefined) {
        const known = Object.keys(spec.recipients);
        throw invalid(
          source,
          `tasks[${index}].recipients[${recipientIndex}]`,
          `no recipient "${recipient}"`,
          `use one of ${known.map((name) => `"${name}"`).join(", ")}, or add it under \`recipients:\``,
        );
      }
    });
    task.checks.forEach((check, checkIndex) => {
      const field = `tasks[${index}].checks[${checkIndex}]`;
      if ("regex" in check) {
        try {
          new RegExp(check.regex, check.flags);
        } catch (error) {
          throw invalid(
            source,
            `${field}.regex`,
            `not a regular expression (${(error as Error).message})`,
            "fix the pattern; in YAML, quote it with single quotes",
          );
        }
      }
      if ("json_schema" in check) {
        try {
          compileJsonSchema(check.json_schema);
        } catch (error) {
          throw invalid(
            source,
            `${field}.json_schema`,
            `not a JSON Schema (${(error as Error).message})`,
            "write a JSON Schema (draft 2020-12) object",
          );
        }
      }
      if ("judge" in check && spec.judges?.[check.judge] === undefined) {
        const known = Object.keys(spec.judges ?? {});
        throw invalid(
          source,
          `${field}.judge`,
          `no judge "${check.judge}"`,
          known.length === 0
            ? "name it under `judges:`"
            : `use one of ${known.map((judge) => `"${judge}"`).join(", ")}, or add it under \`judges:\``,
        );
      }
    });
  });
  for (const recipient of Object.keys(spec.recipients)) {
    if (spec.tasks.every((task) => task.recipients?.includes(recipient) === false)) {
      throw invalid(
        source,
        `recipients.${recipient}`,
        "no task is for it (every task names its recipients, and none names it)",
        "add it to a task's `recipients`, or remove it",
      );
    }
  }
  const conditions = conditionsOf(spec);
  conditions.forEach((condition, index) => {
    if (conditions.indexOf(condition) !== index) {
      throw invalid(
        source,
        `conditions[${index}]`,
        `"${condition}" is listed twice`,
        "list each condition once",
      );
    }
    if (condition.startsWith("view:") && viewOfCondition(spec, condition) === undefined) {
      const known = [...Object.keys(spec.views ?? {}), ...Object.keys(CONTEXT_VIEW_PRESETS)];
      throw invalid(
        source,
        `conditions[${index}]`,
        `no view "${condition.slice(5)}"`,
        `define it under \`views:\` or use one of ${known.map((view) => `"view:${view}"`).join(", ")}`,
      );
    }
  });
  if (Object.keys(spec.recipients).length === 0) {
    throw invalid(
      source,
      "recipients",
      "no recipient",
      "name at least one recipient: `recipients: { vision: { module: ./recipients.mjs } }`",
    );
  }
}

/**
 * Validates an eval spec given as a value (`source` names it in errors). Throws an
 * {@link EvaluationError} `EVAL_SPEC_INVALID` naming the first wrong field and what to do.
 */
export function parseEvalSpec(value: unknown, source = "eval spec"): EvalSpec {
  const parsed = evalSpecSchema.safeParse(value);
  if (!parsed.success) throw zodProblem(source, parsed.error);
  crossCheck(source, parsed.data);
  return parsed.data;
}

/** Parses an eval spec's text, YAML or JSON (untrusted: no aliases, bounded size), and validates it. */
export function parseEvalSpecText(text: string, source = "eval spec"): EvalSpec {
  const parsed = parseYamlSource(text);
  const syntax = parsed.syntaxErrors[0];
  if (syntax !== undefined) {
    throw new EvaluationError({
      code: "EVAL_SPEC_INVALID",
      message: `${source}:${syntax.line}:${syntax.column}: ${syntax.message.replace(/\.$/, "")}; fix the YAML or JSON there`,
    });
  }
  return parseEvalSpec(parsed.value, source);
}
