import { CONTEXT_MISSING_MESSAGE } from "@task-context/core";

/** Non-ASCII on purpose: the bytes must survive JSON-RPC framing unchanged. */
export const CONTEXT =
  "# Lumen\n\nLumen — a note-taking app for researchers.\nLUMEN is the wordmark; café ✓ 𝄞";

/** The hex SHA-256 of the UTF-8 bytes of {@link CONTEXT}. */
export const CONTEXT_SHA256 = "ec567ba854bd676c805b1d2f8f5fe8fc4da38c12bdf8dce9deed1caf9daab5ea";

/** The message of a missing CONTEXT.md, as core throws it. */
export const MISSING_MESSAGE = `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`;

/** A minimal valid Sage document. */
export const SAGE_XML =
  '<subagent-context version="1.0"><task><id>T-1</id><type>plan</type><description>Plan the export</description></task><instructions/><scope><files-to-modify/><files-to-read/><files-forbidden/></scope><context/><output-format><required-fields/><optional-fields/></output-format></subagent-context>';

/** What `get_task_context` returns for {@link CONTEXT}. */
export const GET_TASK_CONTEXT_RESULT = {
  content: [{ type: "text", text: CONTEXT }],
  structuredContent: {
    content: CONTEXT,
    sha256: CONTEXT_SHA256,
    truncated: false,
    originalLength: CONTEXT.length,
  },
};

/**
 * A tool refusal in the one shape of task-context's MCP servers: the text `<CODE>: <message>` and
 * `_meta["task-context/error"]` = `{ error, code, issues? }`, no structuredContent.
 */
export function toolRefusal(
  code: string,
  error: string,
  issues?: Array<{ path: string; message: string }>,
) {
  return {
    content: [{ type: "text", text: `${code}: ${error}` }],
    isError: true,
    _meta: { "task-context/error": { error, code, ...(issues && { issues }) } },
  };
}
