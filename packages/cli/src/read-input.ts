import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { systemErrorCode, thrownMessage } from "@task-context/core/internal";
import { CliError } from "./cli-error.ts";
import type { CliIo } from "./cli-io.ts";

/** A file's text, and the name to show for it (`<stdin>` for `-`). */
export interface InputText {
  name: string;
  text: string;
}

/** Largest input read: a context file is kilobytes; this keeps a wrong argument from eating memory. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Reads all of stdin as UTF-8. */
export async function readStdin(io: CliIo): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_INPUT_BYTES) {
      throw new CliError({
        code: "CLI_UNREADABLE_INPUT",
        message: `stdin has more than ${MAX_INPUT_BYTES} bytes`,
        hint: "pass a smaller input",
      });
    }
    chunks.push(bytes);
  }
  return new TextDecoder().decode(Buffer.concat(chunks)).replace(/^\uFEFF/, "");
}

/** How a missing file is named and what the hint says, when the caller knows better. */
export interface InputDisplay {
  name: string;
  hint: string;
}

/** Reads `path` (relative to the working directory) or stdin for `-`, as UTF-8 without a BOM. */
export async function readInput(
  io: CliIo,
  path: string,
  display?: InputDisplay,
): Promise<InputText> {
  if (path === "-") return { name: "<stdin>", text: await readStdin(io) };
  const name = display?.name ?? path;
  try {
    const bytes = await readFile(resolve(io.cwd, path));
    if (bytes.length > MAX_INPUT_BYTES) {
      throw new CliError({
        code: "CLI_UNREADABLE_INPUT",
        message: `${name} has ${bytes.length} bytes, more than the ${MAX_INPUT_BYTES} read`,
        hint: "pass a smaller file",
      });
    }
    return { name, text: new TextDecoder().decode(bytes).replace(/^\uFEFF/, "") };
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw unreadable(name, error, display?.hint);
  }
}

/** The error for a file that could not be read: what the system said, and what to check. */
export function unreadable(
  path: string,
  error: unknown,
  hint = "check the path, or pass - to read from stdin",
): CliError {
  const code = systemErrorCode(error);
  const reason =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "it is a directory"
        : code === "EACCES"
          ? "permission denied"
          : thrownMessage(error, "unknown error");
  return new CliError({
    code: "CLI_UNREADABLE_INPUT",
    message: `cannot read ${path}: ${reason}`,
    hint,
    cause: error,
  });
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
