import { appendFile, readFile, truncate } from "node:fs/promises";
import { EvaluationError } from "./evaluation-error.ts";
import { type TrialRecord, trialRecordSchema } from "./trial-record.ts";

/**
 * The trials a results file (JSON lines) records, by key; a later line for a key replaces an
 * earlier one. A missing file records nothing. A last line cut short (the run was interrupted
 * while writing it) is ignored; any other line that is not a trial is an `EVAL_RESULTS_INVALID`
 * error naming it.
 */
export async function readResults(path: string): Promise<Map<string, TrialRecord>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw error;
  }
  const records = new Map<string, TrialRecord>();
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const last = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last) return; // torn by an interruption: that trial runs again
      throw resultsError(path, index + 1, "not JSON");
    }
    const parsed = trialRecordSchema.safeParse(value);
    if (!parsed.success) throw resultsError(path, index + 1, "not a trial record of this version");
    records.set(parsed.data.key, parsed.data);
  });
  return records;
}

function resultsError(path: string, line: number, what: string): EvaluationError {
  return new EvaluationError({
    code: "EVAL_RESULTS_INVALID",
    message: `${path}:${line}: ${what}; name another --results file, or delete this one to run every trial again`,
  });
}

/**
 * Appends trial records to a results file, one JSON line each, in the order they are given. A
 * last line cut short by an interruption is removed first (its trial was not counted).
 */
export function resultsWriter(path: string): (record: TrialRecord) => Promise<void> {
  let queue: Promise<void> = readFile(path).then(
    async (bytes) => {
      if (bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a) {
        await truncate(path, bytes.lastIndexOf(0x0a) + 1);
      }
    },
    () => undefined,
  );
  return (record) => {
    queue = queue.then(() => appendFile(path, `${JSON.stringify(record)}\n`));
    return queue;
  };
}
