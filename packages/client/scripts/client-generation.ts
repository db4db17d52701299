// Pure functions that turn the delivery service's OpenAPI document into the client's generated
// files (src/generated/): the TypeScript types of every schema, by openapi-typescript, with the
// names the client exports; the table of operations the client's methods call; the error codes.
// `generate.ts` writes their output; the drift test (src/generated-drift.test.ts) compares it
// with the committed files.
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import ts from "typescript";

/** The folder of the generated files, relative to the package root. */
export const generatedDirectory = "src/generated";

/** The command that regenerates every generated file, from the package root. */
export const generateCommand = "pnpm run generate";

/** One generated file: its path relative to the package root, and its text. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/**
 * The names the client exports for the document's schemas (`components.schemas`), as the
 * contract's types have always been named: every schema of the document has one, and the
 * type-level test (src/generated-types.test.ts) holds each equal to the contract's zod type of
 * the same name.
 */
export const typeNames: Readonly<Record<string, string>> = {
  AddAgent: "AddAgentInput",
  AgentCreated: "AgentCreated",
  Artifact: "Artifact",
  ArtifactInput: "ArtifactInput",
  Attempt: "AttemptRecord",
  Claim: "ClaimView",
  CollaborationEvent: "CollaborationEvent",
  Complete: "CompleteBody",
  Completion: "CompletionView",
  CreateRun: "CreateRunInput",
  CreateViewLink: "CreateViewLinkInput",
  DeadLetter: "DeadLetter",
  DeadLetters: "DeadLettersView",
  Error: "ErrorBody",
  EventPage: "EventPage",
  Fail: "FailBody",
  Failure: "FailureView",
  Health: "HealthView",
  Heartbeat: "HeartbeatBody",
  Lease: "Lease",
  LeaseExtended: "HeartbeatView",
  Offers: "OffersView",
  Requeued: "RequeueView",
  ReviewInput: "ReviewInput",
  Run: "RunView",
  RunCreated: "RunCreated",
  SchemaList: "SchemaList",
  Stage: "StageView",
  StageInput: "StageInput",
  ValidationResult: "ValidationView",
  ViewLink: "ViewLinkCreated",
  WorkItem: "WorkItem",
};

/**
 * The client's method names of each operation, for a document that does not carry them yet as
 * the extensions `x-task-context-client` (the method) and `x-task-context-client-stream` (the
 * method that follows its event stream, `followEvents` of `listEvents`): once the contract's
 * document has them, they alone count and this map goes.
 */
const clientMethods: Readonly<Record<string, readonly string[]>> = {
  health: ["health"],
  listSchemas: ["listSchemas"],
  getSchema: ["getSchema"],
  validate: ["validate"],
  openApi: ["getOpenApiDocument"],
  createRun: ["createRun"],
  getRun: ["getRun"],
  addAgent: ["addAgent"],
  getArtifact: ["getArtifact"],
  listDeadLetters: ["listDeadLetters"],
  requeueWorkItem: ["requeue"],
  createViewLink: ["createViewLink"],
  listEvents: ["listEvents", "followEvents"],
  pollInbox: ["poll"],
  claimNext: ["claimNext"],
  claimWorkItem: ["claim"],
  heartbeat: ["heartbeat"],
  completeWorkItem: ["complete"],
  failWorkItem: ["fail"],
};

/** The service's OpenAPI 3.1 document, as far as the generator reads it. */
export interface ServiceDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown>; [field: string]: unknown };
  [field: string]: unknown;
}

interface DocumentOperation {
  operationId?: string;
  summary?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  "x-task-context-audience"?: string;
  "x-audience"?: string;
  "x-task-context-client"?: string;
  "x-task-context-client-stream"?: string;
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One operation of the document, as the table holds it. */
export interface TableEntry {
  id: string;
  method: string;
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  headerParameters: string[];
  body: string | undefined;
  responses: Record<string, string[]>;
  audience: string;
  client: string[];
}

/** Every operation of `document`, in the document's order. */
export function operationsOf(document: ServiceDocument): TableEntry[] {
  const entries: TableEntry[] = [];
  const named = Object.values(document.paths).some((item) =>
    methods.some(
      (method) =>
        (item[method] as DocumentOperation | undefined)?.["x-task-context-client"] !== undefined,
    ),
  );
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of methods) {
      const operation = item[method] as DocumentOperation | undefined;
      if (operation === undefined) continue;
      const id = operation.operationId;
      if (id === undefined) throw new Error(`${method.toUpperCase()} ${path} has no operationId.`);
      const parameters = (place: string) =>
        (operation.parameters ?? []).filter((p) => p.in === place).map((p) => p.name);
      const client = named
        ? [operation["x-task-context-client"], operation["x-task-context-client-stream"]].filter(
            (name) => name !== undefined,
          )
        : [...(clientMethods[id] ?? [])];
      const audience = operation["x-task-context-audience"] ?? operation["x-audience"];
      if (audience === undefined) throw new Error(`Operation ${id} names no audience.`);
      entries.push({
        id,
        method: method.toUpperCase(),
        path,
        pathParameters: parameters("path"),
        queryParameters: parameters("query"),
        headerParameters: parameters("header"),
        body: Object.keys(operation.requestBody?.content ?? {})[0],
        responses: Object.fromEntries(
          Object.entries(operation.responses ?? {})
            .filter(([status]) => Number(status) < 400)
            .map(([status, response]) => [status, Object.keys(response.content ?? {})]),
        ),
        audience,
        client,
      });
    }
  }
  return entries;
}

const header = (what: string) =>
  `// Generated by scripts/generate.ts from the delivery service's OpenAPI document: ${what}.\n// Do not edit: run \`${generateCommand}\` in packages/client.\n`;

/**
 * `nodes` with `undefined` allowed in every optional property (`title?: string | undefined`), as
 * zod types them: JSON has no `undefined` (`JSON.stringify` leaves such a field out), and with
 * `exactOptionalPropertyTypes` a body typed by the contract's zod schemas must be accepted.
 */
function optionalsAllowUndefined(nodes: readonly ts.Node[]): ts.Node[] {
  const undefinedType = () => ts.factory.createKeywordTypeNode(ts.SyntaxKind.UndefinedKeyword);
  const visit = (node: ts.Node): ts.Node => {
    const visited = ts.visitEachChild(node, visit, undefined);
    if (!ts.isPropertySignature(visited) || visited.questionToken === undefined) return visited;
    if (visited.type === undefined || visited.type.kind === ts.SyntaxKind.NeverKeyword)
      return visited;
    const type = ts.isUnionTypeNode(visited.type)
      ? ts.factory.createUnionTypeNode([...visited.type.types, undefinedType()])
      : ts.factory.createUnionTypeNode([visited.type, undefinedType()]);
    return ts.factory.updatePropertySignature(
      visited,
      visited.modifiers,
      visited.name,
      visited.questionToken,
      type,
    );
  };
  return nodes.map(visit);
}

/** `src/generated/schemas.ts`: openapi-typescript's types of the document, and the client's names. */
async function schemasFile(document: ServiceDocument): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, { alphabetize: false });
  const schemas = Object.keys(document.components?.schemas ?? {});
  const unnamed = schemas.filter((name) => typeNames[name] === undefined);
  if (unnamed.length > 0) {
    throw new Error(
      `The document's schemas ${unnamed.join(", ")} have no name in the client: add them to typeNames in scripts/client-generation.ts.`,
    );
  }
  const aliases = schemas
    .map(
      (name) => `export type ${typeNames[name]} = components["schemas"][${JSON.stringify(name)}];`,
    )
    .join("\n");
  return `${header("the types of its schemas and operations (openapi-typescript)")}${astToString(optionalsAllowUndefined(ast))}
// The names the client exports, one per schema of the document.
${aliases}
/** A review's feedback, as the \`review.feedback\` event carries it. */
export type ReviewFeedback = Extract<components["schemas"]["CollaborationEvent"], { type: "review.feedback" }>["feedback"];
`;
}

/** A JSON value as a TypeScript literal on one line: `["a", "b"]`, `{ "200": [] }`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    const fields = Object.entries(value).map(
      ([key, inner]) => `${JSON.stringify(key)}: ${literal(inner)}`,
    );
    return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** `src/generated/operations.ts`: the table of operations. */
function operationsFile(document: ServiceDocument): string {
  const lines = operationsOf(document).map(({ id, ...entry }) => {
    const fields = Object.entries(entry)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `    ${name}: ${literal(value)},`);
    return `  ${id}: {\n${fields.join("\n")}\n  },`;
  });
  return `${header("the table of its operations")}import type { OperationEntry } from "../operation-entry.ts";

/**
 * Every operation of the delivery service's contract, by operationId: its method, path template,
 * parameters, request body's media type, successful answers (status → media types), audience and
 * the client's methods that call it.
 */
export const operations = {
${lines.join("\n")}
} as const satisfies Record<string, OperationEntry>;
`;
}

/** `src/generated/error-codes.ts`: every code the service answers with, and its status. */
function errorCodesFile(errorStatus: Readonly<Record<string, number>>): string {
  const lines = Object.entries(errorStatus).map(([code, status]) => `  ${code}: ${status},`);
  return `${header("the codes of its error answers")}
/** Every code the delivery service answers with (the \`code\` of \`{ error, code, issues? }\`), and its HTTP status. */
export const errorStatus = {
${lines.join("\n")}
} as const;
`;
}

/** Every generated file, from the service's document and error table. */
export async function generatedFiles(
  document: ServiceDocument,
  errorStatus: Readonly<Record<string, number>>,
): Promise<GeneratedFile[]> {
  return [
    { path: `${generatedDirectory}/schemas.ts`, content: await schemasFile(document) },
    { path: `${generatedDirectory}/operations.ts`, content: operationsFile(document) },
    { path: `${generatedDirectory}/error-codes.ts`, content: errorCodesFile(errorStatus) },
  ];
}
