import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { EvalSpec } from "./eval-spec.ts";
import { EvaluationError } from "./evaluation-error.ts";
import type { Recipient } from "./recipient.ts";

type Entries = EvalSpec["recipients"];

/**
 * The recipients (or judges) a spec names, imported from their modules: each entry's `module`
 * (relative to `directory`) and its named export `export` (default: the entry's name), which must
 * be a function. Throws `EVAL_SPEC_INVALID` naming the entry and what to do.
 */
export async function loadRecipients(
  entries: Entries,
  directory: string,
  field: "recipients" | "judges",
): Promise<Record<string, Recipient>> {
  const loaded: Record<string, Recipient> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const fail = (problem: string, hint: string) =>
      new EvaluationError({
        code: "EVAL_SPEC_INVALID",
        message: `${field}.${name}: ${problem}; ${hint}`,
      });
    if (entry.module === undefined) {
      throw fail(
        "no module",
        "name the module whose export is the recipient: `module: ./recipients.mjs`",
      );
    }
    const path = isAbsolute(entry.module) ? entry.module : resolve(directory, entry.module);
    let module: Record<string, unknown>;
    try {
      module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    } catch (error) {
      throw fail(
        `cannot import ${entry.module} (${(error as Error).message.split("\n")[0]})`,
        "check the path, relative to the spec's folder",
      );
    }
    const exported = entry.export ?? name;
    const recipient = module[exported];
    if (typeof recipient !== "function") {
      const functions = Object.keys(module).filter((key) => typeof module[key] === "function");
      throw fail(
        `${entry.module} has no function exported as "${exported}"`,
        functions.length === 0
          ? "export the recipient from it as a named async function"
          : `set export to one of ${functions.map((key) => `"${key}"`).join(", ")}`,
      );
    }
    loaded[name] = recipient as Recipient;
  }
  return loaded;
}
