// The agent's side of the contract as MCP tools, derived from the contract's registry: one tool
// per `mcp` of an operation (two operations may share one: `claim_work_item` claims the item it
// names, or the oldest on offer). A tool's arguments are its operations' query, body and path
// parameters (the run is the agent's own) and, for an idempotent operation, `idempotency_key`;
// its answer is the operation's. Each call runs the operation through the same executor as its
// HTTP route: the same checks, limits, span and answers.

import type { McpServer } from "@modelcontextprotocol/server";
import {
  idempotencyKeyPattern,
  type McpTool,
  type ObjectSchema,
  type OperationDefinition,
  type OperationId,
  operations,
  pathParameterNames,
} from "@task-context/contract";
import * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { executeOperation } from "../execution/execute-operation.ts";
import type { AgentCaller, OperationHandler } from "../execution/operation-handler.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import { handlers } from "../operations.ts";
import { registerContractTool } from "./contract-tool.ts";

/** What one MCP request acts for: the agent its token names, in its run. */
export interface AgentSession {
  service: ServiceContext;
  caller: AgentCaller;
  /** Aborts when the client goes away or the server stops: a long poll answers at once. */
  signal: AbortSignal;
  onUnexpectedError?: (error: unknown) => void;
}

/** A tool and the operations it calls, in the registry's order. */
interface ToolOperations {
  tool: McpTool;
  operations: OperationDefinition[];
}

/** Every MCP tool of the registry with its operations, in the registry's order. */
export function mcpTools(): ToolOperations[] {
  const tools = new Map<string, ToolOperations>();
  for (const operation of Object.values(operations) as OperationDefinition[]) {
    if (operation.mcp === undefined) continue;
    const known = tools.get(operation.mcp.tool);
    if (known === undefined)
      tools.set(operation.mcp.tool, { tool: operation.mcp, operations: [operation] });
    else known.operations.push(operation);
  }
  return [...tools.values()];
}

const idempotencyKeyArgument = z
  .string()
  .regex(idempotencyKeyPattern, "1 to 255 visible ASCII characters")
  .optional()
  .describe(
    "As the Idempotency-Key header: the same key with the same arguments answers the first answer again; with other arguments, IDEMPOTENCY_KEY_REUSED.",
  );

/** The tool's names of an operation's path parameters but `run_id` (the agent's run). */
function pathArguments(operation: OperationDefinition): [parameter: string, argument: string][] {
  return pathParameterNames(operation.path)
    .filter((parameter) => parameter !== "run_id")
    .map((parameter) => [parameter, operation.mcp?.arguments?.[parameter] ?? parameter]);
}

/** The shape of an object schema of an operation's input, or none. */
function shapeOf(schema: z.core.$ZodType | undefined): Record<string, z.ZodType> {
  return schema === undefined ? {} : (schema as ObjectSchema).shape;
}

/**
 * A tool's arguments: its operations' query and body fields, then their path parameters (each
 * required when every operation of the tool takes it), then `idempotency_key`.
 */
export function toolInput(tool: ToolOperations): ObjectSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const { input } of tool.operations) {
    Object.assign(shape, shapeOf(input?.query), shapeOf(input?.body));
  }
  for (const operation of tool.operations) {
    const path = shapeOf(operation.input?.path);
    for (const [parameter, argument] of pathArguments(operation)) {
      const everywhere = tool.operations.every((other) =>
        pathArguments(other).some(([, name]) => name === argument),
      );
      const schema = path[parameter] as z.ZodType;
      shape[argument] = everywhere ? schema : schema.optional();
    }
  }
  if (tool.operations.some((operation) => operation.idempotent === true)) {
    shape.idempotency_key = idempotencyKeyArgument;
  }
  return z.strictObject(shape);
}

/** A tool's answer: its operation's; with no fields when an operation had nothing to answer. */
export function toolOutput(tool: ToolOperations): z.core.$ZodType {
  const [first] = tool.operations;
  const output = first?.output;
  if (output?.kind !== "json" || output.body === undefined) {
    throw new Error(`The MCP tool ${tool.tool.tool} needs an operation with a JSON answer.`);
  }
  const empty = tool.operations.some(
    (operation) => operation.output.kind === "json" && operation.output.empty !== undefined,
  );
  return empty ? (output.body as ObjectSchema).partial() : output.body;
}

/** The operation a call is for: the one whose path arguments it gives, the most specific first. */
function operationFor(tool: ToolOperations, args: Record<string, unknown>): OperationDefinition {
  const candidates = [...tool.operations].sort(
    (a, b) => pathArguments(b).length - pathArguments(a).length,
  );
  const chosen = candidates.find((operation) =>
    pathArguments(operation).every(([, argument]) => args[argument] !== undefined),
  );
  if (chosen === undefined) throw new Error(`No operation of ${tool.tool.tool} takes these.`);
  return chosen;
}

/** The arguments that are fields of `schema` (an operation's query or body), in its order. */
function fieldsOf(schema: z.core.$ZodType, args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(shapeOf(schema))
      .filter((name) => args[name] !== undefined)
      .map((name) => [name, args[name]]),
  );
}

/**
 * Refuses the arguments `operation` does not take, which another operation of the tool does
 * (`max_items` or `wait` with `work_item_id`, which only claim-next takes): left unread, they
 * would be dropped without a word.
 */
function refuseArgumentsOfOtherOperations(
  tool: ToolOperations,
  operation: OperationDefinition,
  args: Record<string, unknown>,
): void {
  const { input } = operation;
  const taken = new Set([
    ...Object.keys(shapeOf(input?.query)),
    ...Object.keys(shapeOf(input?.body)),
    ...pathArguments(operation).map(([, argument]) => argument),
    ...(operation.idempotent === true ? ["idempotency_key"] : []),
  ]);
  const others = Object.keys(args).filter((name) => args[name] !== undefined && !taken.has(name));
  if (others.length === 0) return;
  const given = pathArguments(operation)
    .map(([, argument]) => argument)
    .join(" and ");
  const withGiven = given === "" ? "" : ` with ${given}`;
  throw new DeliveryError({
    code: "INVALID_REQUEST",
    message: `${tool.tool.tool}${withGiven} takes no ${others.join(" or ")}. Leave ${others.length === 1 ? "it" : "them"} out${given === "" ? "" : `, or leave out ${given}`}.`,
    issues: others.map((name) => ({
      path: `/${name}`,
      message: given === "" ? "Not taken by this call." : `Taken only without ${given}.`,
    })),
  });
}

/** Calls the tool's operation for `args` (checked against the tool's arguments) as `session`. */
async function callTool(
  tool: ToolOperations,
  args: Record<string, unknown>,
  session: AgentSession,
): Promise<object> {
  const operation = operationFor(tool, args);
  refuseArgumentsOfOtherOperations(tool, operation, args);
  const path: Record<string, string> = {};
  if (pathParameterNames(operation.path).includes("run_id")) path.run_id = session.caller.runId;
  for (const [parameter, argument] of pathArguments(operation)) {
    path[parameter] = args[argument] as string;
  }
  const { input } = operation;
  const answer = await executeOperation(
    operation.id as OperationId,
    {
      caller: session.caller,
      path,
      ...(input?.query === undefined ? {} : { query: fieldsOf(input.query, args) as never }),
      ...(input?.body === undefined ? {} : { body: fieldsOf(input.body, args) }),
      idempotencyKey: args.idempotency_key as string | undefined,
    },
    { service: session.service, signal: session.signal },
  );
  return (answer ?? {}) as object;
}

/** Registers the registry's MCP tools on `server`, each acting for `session`'s agent. */
export function registerOperationTools(server: McpServer, session: AgentSession): void {
  for (const tool of mcpTools()) {
    const handler = handlers[
      tool.operations[0]?.id as OperationId
    ] as OperationHandler<OperationDefinition>;
    const { toolText } = handler;
    registerContractTool(
      server,
      {
        name: tool.tool.tool,
        title: tool.tool.title,
        description: tool.tool.description,
        input: toolInput(tool),
        output: toolOutput(tool),
        readOnly: tool.tool.readOnly,
        act: (args) => callTool(tool, args as Record<string, unknown>, session),
        ...(toolText === undefined ? {} : { text: (answer) => toolText(answer as never) }),
      },
      session.onUnexpectedError,
    );
  }
}
