// The server's registry of handlers (src/operations.ts), made from the files of src/operations/:
// one import and one member per handler, typed so that an operation of the contract without a
// handler, or a handler without an operation, does not compile. `generate.ts` writes it; the
// drift test (test/operations/registry-drift.test.ts) compares it with the committed file.
import { fileURLToPath } from "node:url";
import type { GeneratedFile } from "../../../scripts/generated-files.ts";
import {
  definitionFiles,
  generateCommand,
  generatedHeader,
  importLines,
  memberLines,
} from "../../../scripts/operation-registry.ts";

export { generateCommand };

/** The generated registry's path, relative to the package root. */
export const registryPath = "src/operations.ts";

const handlersFolder = fileURLToPath(new URL("../src/operations/", import.meta.url));

/** The registry's text, from the files of src/operations/ as they are now. */
export function registryFile(): GeneratedFile {
  const files = definitionFiles(handlersFolder);
  const content = `${generatedHeader("the registry of handlers", "operations", "server")}// A route, an MCP tool and an A2A outcome run the same handler through the executor
// (execution/execute-operation.ts). An operation of the contract without a handler, or a handler
// without an operation, does not compile.
import type { OperationId, Operations } from "@task-context/contract";
import type { OperationHandler } from "./execution/operation-handler.ts";
${importLines("operations", files)}

/** Every operation's handler, by the operation's id. */
export const handlers = {
${memberLines(files)}
} satisfies { [Id in OperationId]: OperationHandler<Operations[Id], unknown> };
`;
  return { path: registryPath, content };
}
