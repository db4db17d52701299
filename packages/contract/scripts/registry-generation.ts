// The contract's registry of operations (src/operations.ts), made from the files of
// src/operations/: one import and one member per operation, and the re-export of what else each
// file exports (its own schemas and types), so that an operation is added by adding its file.
// `generate.ts` writes it; the drift test (src/operations-drift.test.ts) compares it with the
// committed file.
import { fileURLToPath } from "node:url";
import type { GeneratedFile } from "../../../scripts/generated-files.ts";
import {
  type DefinitionFile,
  definitionFiles,
  generateCommand,
  generatedHeader,
  importLines,
  memberLines,
} from "../../../scripts/operation-registry.ts";

export { generateCommand };

/** The generated registry's path, relative to the package root. */
export const registryPath = "src/operations.ts";

const operationsFolder = fileURLToPath(new URL("../src/operations/", import.meta.url));

/** `export { type AgentList, agentList } from "./operations/list-agents.ts";` per file that has more. */
function reexportLines(files: readonly DefinitionFile[]): string {
  return files
    .filter(({ others }) => others.length > 0)
    .map(({ file, others }) => {
      const names = others.map(({ name, type }) => (type ? `type ${name}` : name));
      return `export { ${names.join(", ")} } from "./operations/${file}";`;
    })
    .join("\n");
}

/** The registry's text, from the files of src/operations/ as they are now. */
export function registryFile(): GeneratedFile {
  const files = definitionFiles(operationsFolder);
  const content = `${generatedHeader("the registry of operations", "operations", "contract")}import { inDocumentOrder } from "./operation-order.ts";
${importLines("operations", files)}

// What each operation's file exports besides its definition: its own schemas and their types.
${reexportLines(files)}

/**
 * Every operation of the delivery service, by its id (the OpenAPI \`operationId\`), in the order
 * the OpenAPI document lists them (./operation-order.ts). Adding an operation: its file in
 * ./operations/, then \`${generateCommand}\`.
 */
export const operations = inDocumentOrder({
${memberLines(files)}
} as const);

/** The registry's type: each operation's definition with its literal types. */
export type Operations = typeof operations;

/** An operation's id, e.g. \`"completeWorkItem"\`. */
export type OperationId = keyof Operations;
`;
  return { path: registryPath, content };
}
