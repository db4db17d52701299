import { operations } from "@task-context/contract";
import { validate as validateValue } from "@task-context/protocols";
import { defineHandler } from "../execution/operation-handler.ts";
import { publishedSchemaName } from "./get-schema.ts";

/** `POST /v1/validate/{name}`: the same zod schemas as @task-context/protocols' validate(). */
export const validate = defineHandler(operations.validate, {
  handle: async ({ path, body }) => validateValue(publishedSchemaName(path.name), body),
});
