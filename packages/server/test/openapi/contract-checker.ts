// Checks the service's answers against its OpenAPI document with a JSON Schema validator that owes
// nothing to zod: ajv (draft 2020-12, strict). Each answer is matched to its operation by method
// and path, and must be one the operation declares: its status, its content type, its headers and
// its JSON body; an event stream frame by frame. A mismatch is an error naming the operation, thrown
// from the fetch that made the request, so the test that sent it fails.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { StartService } from "../contract/harness.ts";

type Json = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document the checker reads. */
export interface OpenApiDocument {
  servers?: { url: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, Json> };
}

interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

interface ResponseObject {
  description: string;
  headers?: Record<string, { required?: boolean; schema?: Json }>;
  content?: Record<string, { schema?: Json }>;
}

/** One operation of the document. */
export interface DocumentedOperation {
  id: string;
  /** Upper case, e.g. `POST`. */
  method: string;
  /** The path template, e.g. `/v1/runs/{run_id}`. */
  path: string;
  /** The statuses it declares, e.g. `["200", "404", "429"]`. */
  statuses: string[];
}

const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const jsonMediaType = /^application\/([\w.-]+\+)?json$/;
const componentPrefix = "#/components/schemas/";
const base = "urn:task-context:edge:openapi";

/** `schema` with its component references pointing at `prefix` + the component's name. */
function retarget(schema: unknown, prefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => retarget(item, prefix));
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" && value.startsWith(componentPrefix)
        ? `${prefix}${value.slice(componentPrefix.length)}`
        : retarget(value, prefix),
    ]),
  );
}

function describeErrors(errors: readonly ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`)
    .join("; ");
}

const excerpt = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

/** An answer that is not what the document declares. */
export class ContractViolation extends Error {
  override name = "ContractViolation";
  constructor(where: string, problem: string) {
    super(`The answer breaks the OpenAPI document: ${where} ${problem}`);
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ContractViolation(where, `with a body that is not JSON: ${excerpt(text)}`);
  }
}

/** The frames of an event stream so far, and the unfinished rest. */
function splitFrames(text: string): { frames: string[]; rest: string } {
  const blocks = text.split("\n\n");
  return { frames: blocks.slice(0, -1), rest: blocks.at(-1) ?? "" };
}

/** An event stream frame's fields (`data` lines joined by LF), or undefined for a comment. */
function parseFrame(block: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    fields[name] = name === "data" && "data" in fields ? `${fields.data}\n${value}` : value;
  }
  return Object.keys(fields).length === 0 ? undefined : fields;
}

/** A documented operation with its compiled path. */
interface Route extends DocumentedOperation {
  pattern: RegExp;
  responses: Record<string, ResponseObject>;
}

/**
 * The checks of one OpenAPI document, compiled once. {@link ContractChecker.fetch} wraps a
 * `fetch` so that every answer is checked; {@link ContractChecker.exercised} records which
 * operations answered with which statuses.
 */
export class ContractChecker {
  readonly operations: readonly DocumentedOperation[];
  /** `operationId` → the statuses its answers had (only answers that passed the checks). */
  readonly exercised = new Map<string, Set<number>>();
  readonly #routes: Route[];
  readonly #basePath: string;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<unknown, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    this.#ajv = new Ajv2020({
      strict: true,
      allErrors: true,
      allowUnionTypes: true,
      strictTuples: false,
      // Declared known, not asserted (an annotation in draft 2020-12): the `pattern` beside it decides.
      formats: { "date-time": true },
    });
    this.#ajv.addSchema({
      $id: base,
      $defs: retarget(document.components.schemas, "#/$defs/") as Json,
    });
    const server = document.servers?.[0]?.url ?? "/";
    this.#basePath = new URL(server, "http://service.test").pathname.replace(/\/$/, "");
    this.#routes = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([method]) => methods.includes(method))
          .map(([method, operation]) => ({
            id: operation.operationId,
            method: method.toUpperCase(),
            path,
            statuses: Object.keys(operation.responses),
            responses: operation.responses,
            pattern: new RegExp(
              `^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`,
            ),
          })),
      )
      // A literal segment wins over a parameter: fewer parameters first.
      .sort((a, b) => a.path.split("{").length - b.path.split("{").length);
    this.operations = this.#routes.map(({ id, method, path, statuses }) => ({
      id,
      method,
      path,
      statuses,
    }));
  }

  #validator(schema: Json): ValidateFunction {
    let validate = this.#validators.get(schema);
    if (validate === undefined) {
      validate = this.#ajv.compile(retarget(schema, `${base}#/$defs/`) as Json);
      this.#validators.set(schema, validate);
    }
    return validate;
  }

  /** The problem with `value` for `schema`, or undefined when it is valid. */
  #problem(schema: Json, value: unknown): string | undefined {
    const validate = this.#validator(schema);
    return validate(value) ? undefined : describeErrors(validate.errors);
  }

  /** A `fetch` that checks every answer of `fetch` against the document. */
  fetch(fetch: (url: string, init?: RequestInit) => Promise<Response>) {
    return async (url: string, init?: RequestInit): Promise<Response> =>
      this.check(init?.method ?? "GET", url, await fetch(url, init));
  }

  /**
   * Checks one answer; throws an error naming the operation when it is not what the document
   * declares. Returns the response to read: an event stream's body is checked as it is read.
   */
  async check(method: string, url: string, response: Response): Promise<Response> {
    const path = new URL(url).pathname.slice(this.#basePath.length);
    const upper = method.toUpperCase();
    const candidates = this.#routes.filter((route) => route.pattern.test(path));
    const route = candidates.find((candidate) => candidate.method === upper);
    if (route === undefined) return this.#checkUndocumented(upper, path, candidates, response);

    const where = `${route.id} (${route.method} ${route.path}) answered ${response.status}`;
    const declared =
      route.responses[String(response.status)] ??
      route.responses[`${String(response.status)[0]}XX`] ??
      route.responses.default;
    if (declared === undefined) {
      const text = await response.clone().text();
      throw new ContractViolation(
        where,
        `— a status it does not declare (only ${route.statuses.join(", ")}): ${excerpt(text)}`,
      );
    }
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required === true)
          throw new ContractViolation(where, `without its required header ${name}`);
        continue;
      }
      if (header.schema === undefined) continue;
      const numeric = header.schema.type === "integer" || header.schema.type === "number";
      const problem = this.#problem(header.schema, numeric ? Number(value) : value);
      if (problem !== undefined)
        throw new ContractViolation(where, `with a header ${name}: ${value} that ${problem}`);
    }

    const contentType = response.headers.get("content-type");
    const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0) {
      const text = await response.clone().text();
      if (text !== "")
        throw new ContractViolation(where, `with a body where it declares none: ${excerpt(text)}`);
      return this.#record(route, response);
    }
    const media = mediaType === undefined ? undefined : content[mediaType];
    if (mediaType === undefined || media === undefined) {
      throw new ContractViolation(
        where,
        `with Content-Type ${contentType ?? "(none)"}, not one it declares (${Object.keys(content).join(", ")})`,
      );
    }
    if (mediaType === "text/event-stream") {
      return this.#record(route, this.#checkedStream(response, media.schema, where));
    }
    const text = await response.clone().text();
    if (jsonMediaType.test(mediaType)) {
      const body = parseJson(text, where);
      const problem = media.schema === undefined ? undefined : this.#problem(media.schema, body);
      if (problem !== undefined)
        throw new ContractViolation(
          where,
          `with a body that breaks its schema: ${problem}: ${excerpt(text)}`,
        );
    }
    return this.#record(route, response);
  }

  #record(route: Route, response: Response): Response {
    let statuses = this.exercised.get(route.id);
    if (statuses === undefined) {
      statuses = new Set();
      this.exercised.set(route.id, statuses);
    }
    statuses.add(response.status);
    return response;
  }

  /**
   * A request the document has no operation for: a path it does not list gets 404, a method the
   * path does not have 405 with `Allow` naming the documented ones — both with the error schema.
   */
  async #checkUndocumented(
    method: string,
    path: string,
    candidates: readonly Route[],
    response: Response,
  ): Promise<Response> {
    const allowed = candidates.map((candidate) => candidate.method);
    const expected = allowed.length === 0 ? 404 : 405;
    const where = `${method} ${path} (no operation of the document) answered ${response.status}`;
    const text = await response.clone().text();
    if (response.status !== expected)
      throw new ContractViolation(where, `instead of ${expected}: ${excerpt(text)}`);
    const allow = response.headers.get("allow");
    const sameMethods = (allow ?? "").split(/,\s*/).sort().join() === [...allowed].sort().join();
    if (expected === 405 && !sameMethods) {
      throw new ContractViolation(where, `with Allow: ${allow}, not ${allowed.join(", ")}`);
    }
    if (!jsonMediaType.test(response.headers.get("content-type")?.split(";")[0] ?? "")) {
      throw new ContractViolation(
        where,
        `with Content-Type ${response.headers.get("content-type")}, not JSON`,
      );
    }
    const problem = this.#problem({ $ref: `${componentPrefix}Error` }, parseJson(text, where));
    if (problem !== undefined)
      throw new ContractViolation(where, `with a body that is not an Error: ${problem}`);
    return response;
  }

  /**
   * The event stream, checked frame by frame as it is read: each frame against the media type's
   * schema (an event's `id`, `event`, `data`, or a `retry`), and a field declared as JSON (`contentMediaType`)
   * against its `contentSchema`. A frame that breaks them errors the stream, so the read fails.
   */
  #checkedStream(response: Response, schema: Json | undefined, where: string): Response {
    if (response.body === null || schema === undefined) return response;
    // The frame's fields, from the schema or from each of its `oneOf` frame shapes.
    const shapes = [schema, ...((schema.oneOf ?? []) as Json[])];
    const properties: Record<string, Json> = Object.assign(
      {},
      ...shapes.map((shape) => (shape.properties ?? {}) as Record<string, Json>),
    );
    const decoder = new TextDecoder();
    let buffer = "";
    const checkFrame = (block: string): string | undefined => {
      const frame = parseFrame(block);
      if (frame === undefined) return undefined;
      const problem = this.#problem(schema, frame);
      if (problem !== undefined) return problem;
      for (const [name, property] of Object.entries(properties)) {
        const value = frame[name];
        const inner = property.contentSchema as Json | undefined;
        if (value === undefined || inner === undefined) continue;
        if (!jsonMediaType.test(String(property.contentMediaType))) continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(value);
        } catch {
          return `${name} is not JSON`;
        }
        const innerProblem = this.#problem(inner, parsed);
        if (innerProblem !== undefined) return `${name}: ${innerProblem}`;
      }
      return undefined;
    };
    const checked = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          buffer += decoder.decode(chunk, { stream: true });
          // CRLF and CR end lines too; a CR at the end may be the first half of a CRLF.
          const complete = buffer.endsWith("\r") ? buffer.slice(0, -1) : buffer;
          const { frames, rest } = splitFrames(complete.replace(/\r\n?/g, "\n"));
          buffer = rest + buffer.slice(complete.length);
          for (const block of frames) {
            const problem = checkFrame(block);
            if (problem !== undefined) {
              controller.error(
                new ContractViolation(
                  where,
                  `with an event stream frame that breaks its schema: ${problem}: ${excerpt(block)}`,
                ),
              );
              return;
            }
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(checked, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** The documented operations no checked answer came from, as `operationId`s. */
  unexercised(): string[] {
    return this.operations.map((operation) => operation.id).filter((id) => !this.exercised.has(id));
  }
}

/** `start`, with every answer of the services it starts checked by `checker`. */
export function checkedServices(start: StartService, checker: ContractChecker): StartService {
  return async (options) => {
    const service = await start(options);
    return { ...service, fetch: checker.fetch(service.fetch) };
  };
}
