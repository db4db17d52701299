import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
} from "@modelcontextprotocol/server";
import type { Workspace } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { InvalidTaskIdError, taskIdSchema } from "@task-context/protocols";
import { parseSubagentContext } from "@task-context/protocols/sage";
import { MAX_SAGE_DOCUMENT_BYTES } from "./limits.ts";
import { resourceError } from "./protocol-errors.ts";
import { SAGE_CONTEXT_URI_TEMPLATE, sageContextUri } from "./resource-uris.ts";

/** The workspace path of a task's Sage document. */
const sagePath = (taskId: string) => `.sage/context/${taskId}.xml`;

/** The task id a URI names, checked: it can never name a path outside `.sage/context/`. */
function requireTaskId(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join("/") : (value ?? "");
  let taskId = raw;
  try {
    taskId = decodeURIComponent(raw);
  } catch {
    // Malformed percent-encoding: the raw text is refused below.
  }
  if (!taskIdSchema.safeParse(taskId).success) {
    const error = new InvalidTaskIdError({ taskId });
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code });
  }
  return taskId;
}

/** Reads and checks one Sage document: at most 1 MiB of UTF-8 that parses as `<subagent-context>`. */
async function readSageDocument(workspace: Workspace, uri: string, taskId: string) {
  const path = sagePath(taskId);
  let bytes: Uint8Array;
  try {
    const file = await workspace.readFile(path, { maxBytes: MAX_SAGE_DOCUMENT_BYTES + 1 });
    if (file.size > MAX_SAGE_DOCUMENT_BYTES) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `${path} is ${file.size} bytes, over the ${MAX_SAGE_DOCUMENT_BYTES}-byte limit for a Sage document. Regenerate it with generateContext, which keeps it within the limits of .sage/config/context-limits.yaml.`,
        { uri },
      );
    }
    bytes = file.bytes;
  } catch (error) {
    return resourceError(uri, error);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${path} is not valid UTF-8. Regenerate it with generateContext.`,
      { uri },
    );
  }
  try {
    parseSubagentContext(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${path} is not a valid <subagent-context> document: ${message}`,
      { uri },
    );
  }
  return { text, sha256: await sha256Hex(bytes) };
}

/**
 * Registers the Sage documents under `.sage/context/` as a resource template by task id, each
 * served as written (XML) once it parses as a `<subagent-context>` document, with its sha256 in
 * `_meta`. `listTaskIds`, when given, makes them appear in `resources/list`.
 */
export function registerSageDocumentResource(
  server: McpServer,
  workspace: Workspace,
  listTaskIds: (() => Promise<readonly string[]>) | undefined,
): void {
  const list =
    listTaskIds === undefined
      ? undefined
      : async () => ({
          resources: (await listTaskIds()).map((taskId) => ({
            uri: sageContextUri(taskId),
            name: sagePath(taskId),
            mimeType: "application/xml",
          })),
        });
  server.registerResource(
    "sage-context",
    new ResourceTemplate(SAGE_CONTEXT_URI_TEMPLATE, { list }),
    {
      title: "Sage subagent context",
      description:
        "The bounded <subagent-context> document of one task, from .sage/context/{taskId}.xml.",
      mimeType: "application/xml",
    },
    async (uri, variables) => {
      const taskId = requireTaskId(variables.taskId);
      const { text, sha256 } = await readSageDocument(workspace, uri.href, taskId);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: "application/xml",
            text,
            _meta: { "task-context/sha256": sha256 },
          },
        ],
      };
    },
  );
}
