import {
  CONTEXT_FILENAME,
  type FileContent,
  FileNotFoundError,
  NotRegularFileError,
  TaskContextMissingError,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { inputTooLarge, MAX_INPUT_BYTES } from "./input-limit.ts";
import { explainLibraryError } from "./library-error.ts";
import { inputText } from "./read-input.ts";

/**
 * CONTEXT.md of the workspace folder `directory` as written (shown as `shown`), read through
 * `nodeWorkspace` as every package reads it: a missing file, or one that is not a plain file
 * inside the folder (a symbolic link, a FIFO, a device, a hard link), is refused with the
 * message the MCP server gives (`TASK_CONTEXT_MISSING`, `WORKSPACE_ESCAPE`), exit 2; one over the
 * input limit is refused after reading at most the limit and one byte.
 */
export async function readContextMd(directory: string, shown: string): Promise<string> {
  let file: FileContent;
  try {
    file = await nodeWorkspace(directory).readFile(CONTEXT_FILENAME, {
      maxBytes: MAX_INPUT_BYTES + 1,
    });
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) {
      throw explainLibraryError(new TaskContextMissingError({ reason: "not-found", cause: error }));
    }
    if (NotRegularFileError.isInstance(error)) {
      throw explainLibraryError(
        new TaskContextMissingError({ reason: "not-a-regular-file", cause: error }),
      );
    }
    throw explainLibraryError(error);
  }
  if (file.size > MAX_INPUT_BYTES) throw inputTooLarge(shown, file.size);
  return inputText(file.bytes);
}
