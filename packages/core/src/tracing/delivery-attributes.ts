/**
 * The names of the span attributes task-context sets on every delivery of the task context to a
 * recipient, all under the `task_context.` namespace. They are part of the public API: dashboards
 * and queries may rely on them. See docs/observability.md for what each one means.
 */
export const DELIVERY_ATTRIBUTES = {
  /** Hex SHA-256 of the delivered context (the receipt), a string. */
  contextSha256: "task_context.context.sha256",
  /** Length of the delivered context in UTF-16 units, an integer. */
  contextCharacters: "task_context.context.characters",
  /** Length of CONTEXT.md's text before any cut, in UTF-16 units, an integer. */
  contextOriginalCharacters: "task_context.context.original_characters",
  /** Tokens of the delivered context, counted with the configured tokenizer; only with one. */
  contextTokens: "task_context.context.tokens",
  /** Whether the limits cut the delivered context short, a boolean. */
  contextTruncated: "task_context.context.truncated",
  /** How many secrets were redacted from the delivered context, an integer; only when any were. */
  contextRedactions: "task_context.context.redactions",
  /** The kinds of the redacted secrets (`openai-api-key`, `jwt`, …), a string array, each once. */
  contextRedactionKinds: "task_context.context.redaction_kinds",
  /** The name of the view of CONTEXT.md delivered (some of its sections), a string; only with a view. */
  contextViewName: "task_context.context.view.name",
  /** The headings of the sections the view delivered, a string array, in file order; only with a view. */
  contextViewSections: "task_context.context.view.sections",
  /**
   * Hex SHA-256 of what CONTEXT.md delivers without the view (the whole file, bounded), a string;
   * only with a view, whose own hash is `task_context.context.sha256`.
   */
  contextFileSha256: "task_context.context.file_sha256",
  /**
   * The model profile the context was fitted to (`openai/dall-e-2`), a string; only when the
   * context was fitted to a model's prompt limit. `task_context.context.sha256` and `.characters`
   * then describe the context as sent.
   */
  contextFitProfile: "task_context.context.fit.profile",
  /** The headings of the sections the fit left out, a string array; only when fitted. */
  contextFitDropped: "task_context.context.fit.dropped",
  /** Whether the fit left the context out entirely (the request alone filled the limit); only when fitted. */
  contextFitLeftOut: "task_context.context.fit.left_out",
  /** Hex SHA-256 of the context as loaded, before the fit, a string; only when fitted. */
  contextLoadedSha256: "task_context.context.loaded_sha256",
  /** The context hash a recipient quoted back as the one it worked from (its receipt), a string. */
  contextQuotedSha256: "task_context.context.quoted_sha256",
  /** Whether that quoted hash was not the current one: the recipient worked from a stale context. */
  contextStale: "task_context.context.stale",
  /** What received the context: one of {@link RECIPIENT_KINDS}. */
  recipientKind: "task_context.recipient.kind",
  /** Which recipient of that kind: a tool's name, a model's id, a subagent's or work item's id. */
  recipientId: "task_context.recipient.id",
  /** How the delivery ended: one of {@link DELIVERY_OUTCOMES}. */
  outcome: "task_context.outcome",
} as const;

/**
 * The OpenTelemetry GenAI semantic-convention attributes task-context sets where one exists
 * (https://opentelemetry.io/docs/specs/semconv/gen-ai/), and the general `error.type`.
 */
export const GEN_AI_ATTRIBUTES = {
  /** `execute_tool`, `invoke_agent` or `chat`. */
  operationName: "gen_ai.operation.name",
  /** The tool's name, e.g. `read_media`. */
  toolName: "gen_ai.tool.name",
  /** `function` for the media tools and MCP tools. */
  toolType: "gen_ai.tool.type",
  /** The AI SDK's id of the tool call, when the tool was called by a model. */
  toolCallId: "gen_ai.tool.call.id",
  /** A subagent's id. */
  agentId: "gen_ai.agent.id",
  /** A subagent's name: its type when it has one, else its id. */
  agentName: "gen_ai.agent.name",
  /** The model asked, e.g. `gpt-5-mini`. */
  requestModel: "gen_ai.request.model",
  /** The model's provider, e.g. `openai`. */
  providerName: "gen_ai.provider.name",
  /** The MCP method, e.g. `tools/call` or `resources/read`. */
  mcpMethodName: "mcp.method.name",
  /** The URI of the MCP resource read. */
  mcpResourceUri: "mcp.resource.uri",
  /** The class of the failure: an error's `code` (`TASK_CONTEXT_MISSING`), else its name. */
  errorType: "error.type",
} as const;

/** Every kind of recipient a delivery span names in `task_context.recipient.kind`. */
export const RECIPIENT_KINDS = [
  "media-tool",
  "model",
  "subagent",
  "work-item",
  "mcp-tool",
  "mcp-resource",
] as const;

/** What received the task context: a media tool, a wrapped model, a subagent, … */
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/**
 * How a delivery ended, in `task_context.outcome`: `success`, `error` (it threw or returned a
 * failure), a subagent's own non-success status (`failure`, `blocked`, `timeout`, `aborted`), or
 * `empty` when there was nothing to deliver (a claim of the next work item with none on offer, or
 * an agent framework's delegation with `required: false` and no usable CONTEXT.md).
 */
export const DELIVERY_OUTCOMES = [
  "success",
  "error",
  "failure",
  "blocked",
  "timeout",
  "aborted",
  "empty",
] as const;

/** One of {@link DELIVERY_OUTCOMES}. */
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
