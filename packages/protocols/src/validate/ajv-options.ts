/**
 * The ajv options shared by the run-time validators (`runtime-validators.ts`) and the
 * generator of the standalone ones (`scripts/schema-generation.ts`): both must produce the same
 * validation code, hence the same answers.
 *
 * - `strict` with `allowUnionTypes` and `strictTuples: false`: what zod 4's draft 2020-12 output
 *   needs.
 * - `allErrors`: report every issue, as zod does, so that a caller fixes a value in one round.
 *   It also lets union issues be narrowed to the branch the discriminator selects.
 * - `validateFormats: false`: zod emits `format: "date-time"` together with a `pattern` that is
 *   zod's own check, so the pattern decides. Format assertion would need ajv-formats, whose
 *   date-time differs from zod's, and whose standalone code `require`s it at run time. In draft
 *   2020-12 `format` is an annotation by default, as @hyperjump/json-schema treats it.
 */
export const ajvOptions = {
  strict: true,
  allowUnionTypes: true,
  strictTuples: false,
  allErrors: true,
  validateFormats: false,
} as const;
