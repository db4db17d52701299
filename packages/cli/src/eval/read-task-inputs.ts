import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { redactSecrets } from "@task-context/core";
import type { EvalTask } from "./eval-spec.ts";
import { EvaluationError } from "./evaluation-error.ts";
import type { RecipientInput } from "./recipient.ts";

const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * A task's input files, read from `directory` (at most 16 MiB each): a text file (valid UTF-8,
 * no NUL) with its secrets redacted, as the prompt is; a binary file as it is. Also the number
 * of secrets redacted. A file that cannot be read is `EVAL_SPEC_INVALID`.
 */
export async function readTaskInputs(
  task: EvalTask,
  directory: string,
): Promise<{ inputs: RecipientInput[]; redactions: number }> {
  const inputs: RecipientInput[] = [];
  let redactions = 0;
  for (const name of task.inputs ?? []) {
    const path = isAbsolute(name) ? name : join(directory, name);
    let data: Uint8Array;
    try {
      data = await readFile(path);
    } catch (error) {
      throw new EvaluationError({
        code: "EVAL_SPEC_INVALID",
        message: `task "${task.id}": cannot read input ${name} (${(error as NodeJS.ErrnoException).code ?? "error"}); inputs are relative to the spec's folder`,
      });
    }
    if (data.length > MAX_INPUT_BYTES) {
      throw new EvaluationError({
        code: "EVAL_SPEC_INVALID",
        message: `task "${task.id}": input ${name} has ${data.length} bytes, more than the 16 MiB an input may have; give a smaller file`,
      });
    }
    const decoded = data.includes(0) ? undefined : decodeUtf8(data);
    if (decoded === undefined) {
      inputs.push({ name, data });
      continue;
    }
    const redacted = redactSecrets(decoded);
    redactions += redacted.redactions.length;
    inputs.push({ name, data: new TextEncoder().encode(redacted.text), text: redacted.text });
  }
  return { inputs, redactions };
}

function decodeUtf8(data: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}
