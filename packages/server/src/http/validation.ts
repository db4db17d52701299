import { checkValue } from "@task-context/protocols/internal";
import type { Context, MiddlewareHandler } from "hono";
import { uniqueSymbol, validator } from "hono-openapi";
import type * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { refuseLoneSurrogates } from "./lone-surrogates.ts";
import { decodeUtf8Body } from "./utf8-body.ts";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

/** Refuses a body that is not declared as JSON (415), instead of reading it as `{}`. */
export const requireJsonBody: MiddlewareHandler = async (c, next) => {
  requireJsonMediaType(c.req.header("Content-Type"));
  await next();
};

function requireJsonMediaType(contentType: string | undefined): void {
  const mediaType = (contentType ?? "").split(";")[0]?.trim() ?? "";
  if (!jsonMediaType.test(mediaType)) {
    throw new DeliveryError({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Send the request body as JSON, with Content-Type: application/json.",
    });
  }
}

/** The answer to a value that breaks its schema: 400 with an issue per problem. */
function invalidRequest<Schema extends z.ZodType>(schema: Schema, value: unknown, where: string) {
  const { issues } = checkValue(schema, value, { root: where });
  return new DeliveryError({
    code: "INVALID_REQUEST",
    message: `The ${where} does not match the contract. Fix the issues listed.`,
    issues,
  });
}

/**
 * `value` checked against `schema` (strict), or `INVALID_REQUEST` with an issue per problem, as
 * the routes answer: the MCP tools check their arguments with it (`where`: "tool arguments").
 * Text that is not well-formed Unicode is refused first, an issue per string (see
 * {@link refuseLoneSurrogates}).
 */
export function parseOrRefuse<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: string,
): z.infer<Schema> {
  refuseLoneSurrogates(value, where);
  const checked = checkValue(schema, value, { root: where });
  if (checked.valid) return checked.data as z.infer<Schema>;
  throw new DeliveryError({
    code: "INVALID_REQUEST",
    message: `The ${where} do not match the contract. Fix the issues listed.`,
    issues: checked.issues,
  });
}

/**
 * The body's JSON, read as exact UTF-8 text, or undefined when the body cannot be read or is not
 * JSON; text that is not well-formed Unicode (bytes that are not UTF-8, lone surrogates in
 * strings or keys) is refused with `INVALID_REQUEST`. Hono keeps the bytes for a later reader.
 */
export async function wellFormedJson(c: Context): Promise<{ value: unknown } | undefined> {
  let body: ArrayBuffer;
  try {
    body = await c.req.arrayBuffer();
  } catch {
    return undefined;
  }
  let value: unknown;
  const text = decodeUtf8Body(body);
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  refuseLoneSurrogates(value, "request body");
  return { value };
}

/**
 * Validates the JSON body against `schema` (strict: unknown fields are refused) and documents it
 * in the OpenAPI document; a body not declared as JSON gets 415, one whose text is not
 * well-formed Unicode (bytes that are not UTF-8, lone surrogates in strings or keys) 400. Issues
 * carry JSON Pointers and say what to write instead.
 */
export function jsonBody<Schema extends z.ZodType>(schema: Schema) {
  const validate = validator("json", schema, (result) => {
    if (!result.success) throw invalidRequest(schema, result.data, "request body");
  });
  const middleware: typeof validate = async (c, next) => {
    requireJsonMediaType(c.req.header("Content-Type"));
    // A body that cannot be read or is not JSON is the validator's: malformed JSON.
    await wellFormedJson(c);
    return validate(c, next);
  };
  // The OpenAPI document reads the request schema from this property.
  const metadata = (validate as unknown as Record<typeof uniqueSymbol, unknown>)[uniqueSymbol];
  return Object.assign(middleware, { [uniqueSymbol]: metadata });
}

/** Validates the query string against `schema`; documented as the operation's parameters. */
export function queryParameters<Schema extends z.ZodType>(schema: Schema) {
  return validator("query", schema, (result) => {
    if (!result.success) throw invalidRequest(schema, result.data, "query string");
  });
}
