// The client's plain methods (src/generated/methods.ts), made from the service's OpenAPI
// document: one per operation that names a client method whose call is mechanical — the path's
// parameters positional in the path's order, then the JSON body, then the options (with the
// query's parameters among them) — typed by the generated types and documented from the
// operation's summary and audience. The methods the table cannot make are written by hand in
// src/service-client.ts and named in `handWrittenMethods`, each with its reason.
import { clientTypeName, operationsOf, type ServiceDocument } from "./client-generation.ts";

/** The client's methods written by hand (src/service-client.ts), and why. */
export const handWrittenMethods: Readonly<Record<string, string>> = {
  getOpenApiDocument: "answers the document's own type, OpenApiDocument",
  listRuns: "takes `status` as a list, sent joined by commas",
  listEvents: "keeps the view token's `view` out of its options, ListEventsOptions",
  followEvents: "reads a stream that resumes with Last-Event-ID",
  poll: "takes the options PollOptions names",
  claimNext: "answers undefined when nothing came (204)",
  complete: "sends an Idempotency-Key, and again with each retry",
  fail: "sends an Idempotency-Key, and again with each retry",
};

/** Headers the transport sends by itself: a plain method has no argument for them. */
const transportHeaders = new Set(["traceparent", "tracestate"]);

/** How the audience reads at the end of a method's documentation. */
const audienceText: Readonly<Record<string, string>> = {
  public: "Public.",
  admin: "Admin.",
  agent: "Agent.",
  "admin or agent": "Admin or an agent of the run.",
  "admin or view link": "Admin or a view link.",
};

interface SchemaObject {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}

interface DocumentOperation {
  summary: string;
  requestBody?: { content: Record<string, { schema?: SchemaObject }> };
  responses: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
}

/** `run_id` → `runId`; `id` after `work-items/` → `workItemId`: the argument's name. */
function argumentName(path: string, parameter: string): string {
  if (parameter === "id") {
    const segment = path.split("/").at(path.split("/").indexOf("{id}") - 1) ?? "item";
    return `${camel(segment.replace(/s$/, ""))}Id`;
  }
  return camel(parameter);
}

const camel = (text: string) =>
  text.replace(/[-_]([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** The type the client names for `schema`: a component's name, any JSON object, or any value. */
function typeOf(schema: SchemaObject | undefined): string {
  if (schema?.$ref !== undefined) return clientTypeName(schema.$ref.split("/").at(-1) as string);
  if (schema?.type === "object" && schema.properties === undefined)
    return "Record<string, unknown>";
  return "unknown";
}

/** The component `schema` refers to, to know whether any of its properties is required. */
function component(document: ServiceDocument, schema: SchemaObject | undefined): SchemaObject {
  const name = schema?.$ref?.split("/").at(-1);
  return (name === undefined ? {} : (document.components?.schemas?.[name] ?? {})) as SchemaObject;
}

/** `text` as TSDoc lines of at most 100 characters, indented by two spaces. */
function documentation(text: string): string {
  const lines: string[] = [];
  let line = "   *";
  for (const word of text.split(" ")) {
    if (line.length + word.length + 1 > 100) {
      lines.push(line);
      line = "   *";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return `  /**\n${lines.join("\n")}\n   */`;
}

/** A reason why operation `id` cannot have a plain method, or undefined when it can. */
function notPlain(entry: ReturnType<typeof operationsOf>[number]): string | undefined {
  const headers = entry.headerParameters.filter((name) => !transportHeaders.has(name));
  if (headers.length > 0) return `it reads the header(s) ${headers.join(", ")}`;
  const answers = Object.entries(entry.responses);
  if (answers.length !== 1 || answers[0]?.[1].length !== 1)
    return "it has more than one successful answer or media type";
  if (entry.body !== undefined && entry.body !== "application/json")
    return `its body is ${entry.body}`;
  if (entry.client.length !== 1) return "it has a stream method";
  return undefined;
}

/** A type of the generated schemas (to import), not `unknown` or `Record<string, unknown>`. */
const isSchemaType = (type: string) => /^[A-Z][A-Za-z]*$/.test(type) && type !== "Record";

/** One plain method's code, and the generated schemas' types it names. */
function methodCode(
  document: ServiceDocument,
  entry: ReturnType<typeof operationsOf>[number],
): { code: string; types: string[] } {
  const operation = document.paths[entry.path]?.[entry.method.toLowerCase()] as DocumentOperation;
  const [[, [mediaType]]] = Object.entries(entry.responses) as [[string, [string]]];
  const answer =
    operation.responses[Object.keys(entry.responses)[0] as string]?.content?.[mediaType]?.schema;
  const parameters = entry.pathParameters.map((name) => ({
    wire: name,
    name: argumentName(entry.path, name),
  }));
  const signature = parameters.map(({ name }) => `${name}: string`);
  const types = [typeOf(answer)];
  const request: string[] = [];
  if (parameters.length > 0) {
    const fields = parameters.map(({ wire, name }) => (wire === name ? name : `${wire}: ${name}`));
    request.push(`path: { ${fields.join(", ")} }`);
  }
  if (entry.body !== undefined) {
    const schema = operation.requestBody?.content["application/json"]?.schema;
    const type = typeOf(schema);
    types.push(type);
    const name = type === "unknown" ? "value" : type.endsWith("Input") ? "input" : "body";
    const optional =
      type !== "unknown" && (component(document, schema).required ?? []).length === 0;
    signature.push(`${name}: ${type}${optional ? " = {}" : ""}`);
    request.push(name === "body" ? "body" : `body: ${name}`);
  }
  const query = entry.queryParameters;
  let prologue = "";
  if (query.length > 0) {
    signature.push(`options: CallOptions & QueryOf<${JSON.stringify(entry.id)}> = {}`);
    prologue = `    const { ${query.join(", ")} } = options;\n`;
    request.push(`query: { ${query.join(", ")} }`);
  } else {
    signature.push("options?: CallOptions");
  }
  if (mediaType !== "application/json") request.push(`accept: ${JSON.stringify(mediaType)}`);
  const [method] = entry.client as [string];
  const summary = `\`${entry.method} ${entry.path}\`: ${operation.summary}. ${audienceText[entry.audience] ?? ""}`;
  const code = `${documentation(summary.trim())}
  ${method}(${signature.join(", ")}): Promise<${typeOf(answer)}> {
${prologue}    return this.#call(${JSON.stringify(entry.id)}, ${request.length === 0 ? "{}" : `{ ${request.join(", ")} }`}, options);
  }`;
  return { code, types: types.filter(isSchemaType) };
}

/**
 * `src/generated/methods.ts`: the class of the plain methods, which the client extends. An
 * operation with a client method that is neither plain nor hand-written is an error that says
 * what to do.
 */
export function methodsFile(document: ServiceDocument, header: string): string {
  const methods: string[] = [];
  const types = new Set<string>();
  for (const entry of operationsOf(document)) {
    const [method] = entry.client;
    if (method === undefined || method in handWrittenMethods) continue;
    const reason = notPlain(entry);
    if (reason !== undefined) {
      throw new Error(
        `The client cannot call ${entry.id} with a plain method ${method}: ${reason}. Write ${method} in src/service-client.ts and name it in handWrittenMethods (scripts/method-generation.ts).`,
      );
    }
    const { code, types: named } = methodCode(document, entry);
    for (const name of named) types.add(name);
    methods.push(code);
  }
  const named = [...types].sort();
  const callTypes = ["CallOptions", "OperationCaller"];
  if (methods.some((code) => code.includes("QueryOf<"))) callTypes.push("QueryOf");
  return `${header}import type { ${callTypes.join(", ")} } from "../operation-call.ts";
import type {
${named.map((name) => `  ${name},`).join("\n")}
} from "./schemas.ts";

/**
 * The client's plain methods, one per operation whose call is mechanical: the path's parameters
 * in the path's order, then the body, then the options. \`ServiceClient\` extends this class
 * with the methods written by hand.
 */
export class OperationMethods {
  readonly #call: OperationCaller;

  /** @param call Sends one operation's request and reads its JSON answer. */
  constructor(call: OperationCaller) {
    this.#call = call;
  }

${methods.join("\n\n")}
}
`;
}
