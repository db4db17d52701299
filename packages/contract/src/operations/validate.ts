import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { schemaNameParameter } from "../parameters.ts";
import { validationView } from "../schemas.ts";

/** `POST /v1/validate/{name}`: a JSON value checked against a published schema. */
export const validate = defineOperation({
  id: "validate",
  method: "POST",
  path: "/v1/validate/{name}",
  audience: "public",
  summary: "Check a JSON value against a published schema",
  description:
    "Runs the same zod schemas as @task-context/protocols' validate(): every issue has the JSON Pointer of its field and says what to write instead.",
  tag: "public",
  input: {
    path: z.strictObject({ name: schemaNameParameter }),
    body: z.unknown().describe("Any JSON value"),
  },
  bodyDescription: "The value to check",
  output: {
    kind: "json",
    status: 200,
    body: validationView,
    description: "The verdict and its issues",
  },
  errors: ["INVALID_REQUEST", "SCHEMA_NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
  client: { method: "validate" },
});
