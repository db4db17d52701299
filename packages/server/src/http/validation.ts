import { checkValue } from "@task-context/protocols/internal";
import type * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { refuseLoneSurrogates } from "./lone-surrogates.ts";

const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

/** Refuses a body that is not declared as JSON (415), instead of reading it as `{}`. */
export function requireJsonMediaType(contentType: string | undefined): void {
  const mediaType = (contentType ?? "").split(";")[0]?.trim() ?? "";
  if (!jsonMediaType.test(mediaType)) {
    throw new DeliveryError({
      code: "UNSUPPORTED_MEDIA_TYPE",
      message: "Send the request body as JSON, with Content-Type: application/json.",
    });
  }
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
