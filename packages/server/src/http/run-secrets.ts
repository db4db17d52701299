import type { CreateRunInput } from "@task-context/contract";
import { findSecrets, redactSecrets, type SecretPolicy } from "@task-context/core";
import { countSecrets, requireSecretPolicy } from "@task-context/core/internal";
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";

/**
 * The secrets policy of a Worker variable or environment variable (`TASK_CONTEXT_SECRETS`):
 * unset or empty → `"redact"`; anything but `redact`, `refuse` or `allow` → `ArgumentError`
 * naming the variable.
 */
export function parseSecretPolicy(variable: string, value: string | undefined): SecretPolicy {
  return requireSecretPolicy(variable, value === "" ? undefined : value);
}

/** A secret in a field of a new run. */
interface FieldSecret {
  /** JSON Pointer of the field, e.g. `/stages/0/background`. */
  path: string;
  kind: string;
  label: string;
  line: number;
}

/** Every text field of a new run that every agent of the run receives, with its JSON Pointer. */
function contextFields(input: CreateRunInput): Array<[string, string]> {
  const fields: Array<[string, string]> = [["/goal", input.goal]];
  for (const [index, constraint] of input.constraints.entries()) {
    fields.push([`/constraints/${index}`, constraint]);
  }
  for (const [index, stage] of input.stages.entries()) {
    const at = `/stages/${index}`;
    fields.push([`${at}/stage_description`, stage.stage_description]);
    fields.push([`${at}/expected_output`, stage.expected_output]);
    if (stage.background !== undefined) fields.push([`${at}/background`, stage.background]);
    for (const [skill, text] of stage.available_skills.entries()) {
      fields.push([`${at}/available_skills/${skill}`, text]);
    }
    for (const [criterion, text] of (stage.review_criteria ?? []).entries()) {
      fields.push([`${at}/review_criteria/${criterion}`, text]);
    }
  }
  return fields;
}

/** The field at `path` of `input` set to `value` (a copy; `input` is left as it is). */
function withField(input: CreateRunInput, path: string, value: string): CreateRunInput {
  const copy = structuredClone(input);
  const keys = path.slice(1).split("/");
  const last = keys.pop() as string;
  let target: Record<string, unknown> = copy as unknown as Record<string, unknown>;
  for (const key of keys) target = target[key] as Record<string, unknown>;
  target[last] = value;
  return copy;
}

const describe = (secrets: readonly FieldSecret[]) =>
  secrets.map(({ kind, path, line }) => `${kind} in ${path} (line ${line})`).join(", ");

/**
 * Applies the service's secrets policy to a new run: its goal, constraints and stage contexts go
 * to every agent of the run, and on to the models they call. `"redact"` returns the run with each
 * secret replaced by `[redacted: <kind>]` and a warning; `"refuse"` throws `SECRET_IN_CONTEXT`
 * (422) naming kinds and fields, never values; `"allow"` returns the run as it came.
 */
export function screenRunSecrets(
  input: CreateRunInput,
  policy: SecretPolicy,
): { input: CreateRunInput; warning?: string } {
  if (policy === "allow") return { input };
  const found: FieldSecret[] = [];
  let screened = input;
  for (const [path, text] of contextFields(input)) {
    const secrets = findSecrets(text);
    if (secrets.length === 0) continue;
    for (const { kind, label, line } of secrets) found.push({ path, kind, label, line });
    if (policy === "redact") screened = withField(screened, path, redactSecrets(text).text);
  }
  if (found.length === 0) return { input };
  const them = found.length === 1 ? "it" : "them";
  if (policy === "refuse") {
    const issues: ValidationIssue[] = found.map(({ path, kind, label, line }) => ({
      path,
      message: `This looks like ${label} (${kind}, line ${line}): remove it; every agent of the run would receive it.`,
    }));
    throw new DeliveryError({
      code: "SECRET_IN_CONTEXT",
      message: `The run holds ${countSecrets(found.length)}: ${describe(found)}. Nothing was stored, because the service's secrets policy is "refuse": remove ${them} and pass credentials another way.`,
      issues,
    });
  }
  return {
    input: screened,
    warning: `Redacted ${countSecrets(found.length)} from the run before it was stored: ${describe(found)}. Every agent of the run receives these fields: remove ${them} and pass credentials another way.`,
  };
}
