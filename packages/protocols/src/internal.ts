/**
 * Helpers the task-context packages and apps share, for their own use: the issue wording of
 * `validate()` for any zod schema, and its JSON Pointers. Not part of the public API: names and
 * signatures may change in any release.
 *
 * @internal
 * @module
 */

export { checkValue, fromJsonPointer, toJsonPointer } from "./validate/issues.ts";
