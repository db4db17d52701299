// The checks a request's input passes before its operation runs, the same for every entry (an
// HTTP route, an MCP tool, an A2A agent's outcome): its body's size against the service's limit,
// its text (well-formed Unicode), each part against its schema (strict), its idempotency key.

import { idempotencyKeyPattern } from "@task-context/contract";
import { checkValue } from "@task-context/protocols/internal";
import type * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { IdempotencyKey } from "../delivery/delivery-store.ts";
import { idempotencyKeyOf } from "../http/idempotency.ts";
import { loneSurrogateIssues } from "../http/lone-surrogates.ts";

const encoder = new TextEncoder();

/**
 * Refuses a body larger than `limit` bytes (`bytes` as it came; by default the UTF-8 length of
 * its JSON) with `PAYLOAD_TOO_LARGE`, and a body holding text that is not well-formed Unicode
 * with `INVALID_REQUEST` and an issue per string (it would not be stored as sent).
 */
export function checkBody(body: unknown, bytes: number | undefined, limit: number): void {
  const size = bytes ?? encoder.encode(JSON.stringify(body)).byteLength;
  if (size > limit) {
    throw new DeliveryError({
      code: "PAYLOAD_TOO_LARGE",
      message: `The request body is larger than ${limit} bytes. Send less (store large content elsewhere and reference it).`,
      refused: { check: "body-size", bytes: size, limit },
    });
  }
  const issues = loneSurrogateIssues(body);
  if (issues.length > 0) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message:
        "The request body holds text that is not well-formed Unicode. Fix the issues listed.",
      issues,
      refused: { check: "well-formed" },
    });
  }
}

/**
 * `value` checked against `schema` (strict: unknown fields are refused), or `INVALID_REQUEST`
 * with an issue per problem, each at its JSON Pointer saying what to write instead; `where` is
 * the part: "request body", "query string", "path".
 */
export function checkPart<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  where: string,
): z.output<Schema> {
  const checked = checkValue(schema, value, { root: where });
  if (checked.valid) return checked.data as z.output<Schema>;
  throw new DeliveryError({
    code: "INVALID_REQUEST",
    message: `The ${where} does not match the contract. Fix the issues listed.`,
    issues: checked.issues,
    refused: { check: "schema" },
  });
}

/**
 * The idempotency key `key` with a hash of what it came with (`scope`, the path's values, the
 * checked body): the same key with the same request answers the first answer again. A key that
 * is not 1 to 255 visible ASCII characters is `INVALID_REQUEST`.
 */
export async function checkIdempotencyKey(
  key: string | undefined,
  scope: string,
  path: object | undefined,
  body: unknown,
): Promise<IdempotencyKey | undefined> {
  if (key === undefined) return undefined;
  if (!idempotencyKeyPattern.test(key)) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message:
        "Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice).",
      issues: [{ path: "/headers/idempotency-key", message: "1 to 255 visible ASCII characters" }],
    });
  }
  return idempotencyKeyOf(key, scope, Object.values(path ?? {}).join("/"), body);
}
