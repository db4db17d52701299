import { resolve } from "node:path";
import { thrownMessage } from "@task-context/core/internal";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";
import { BoundedBytes } from "./input-limit.ts";
import { readPath } from "./read-path.ts";

/** A file's text, and the name to show for it (`<stdin>` for `-`). */
export interface InputText {
  name: string;
  text: string;
}

/** Bytes as UTF-8 text without a BOM (invalid bytes become U+FFFD). */
export function inputText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
}

/** Reads stdin as UTF-8, up to the input limit: past it, reading stops and the input is refused. */
export async function readStdin(io: CliIo): Promise<string> {
  const bytes = new BoundedBytes("<stdin>");
  // Leaving the loop early (over the limit) stops reading: the stream is destroyed.
  for await (const chunk of io.stdin) {
    bytes.add(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
  }
  return inputText(bytes.bytes());
}

/**
 * Reads `path` (relative to the working directory), or stdin for `-`, as UTF-8 without a BOM:
 * never more than the input limit (see `readPath` for what a path may name).
 */
export async function readInput(io: CliIo, path: string): Promise<InputText> {
  if (path === "-") return { name: "<stdin>", text: await readStdin(io) };
  return { name: path, text: inputText(await readPath(resolve(io.cwd, path), path)) };
}

/** Parses JSON input, or fails with a usage-grade error naming the file and the position. */
export function parseJsonInput(input: InputText): unknown {
  try {
    return JSON.parse(input.text);
  } catch (error) {
    throw new CliError({
      code: "CLI_UNREADABLE_INPUT",
      message: `${input.name} is not valid JSON: ${thrownMessage(error, "parse error")}`,
      hint: "check the file with `task-context validate` or a JSON linter",
      cause: error,
    });
  }
}
