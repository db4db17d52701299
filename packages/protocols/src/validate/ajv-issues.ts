import { patternMessages } from "./pattern-messages.ts";
import type { SchemaValidator, ValidationIssue } from "./validation-result.ts";

/**
 * The fields of an ajv error object that issues are made of. Declared here rather than imported
 * from ajv so that the standalone validators (which must not load ajv) share this code.
 */
export interface AjvErrorObject {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  /** Set on the errors of a `propertyNames` subschema: the property name that failed. */
  propertyName?: string;
}

/** An ajv validate function, compiled at run time or generated standalone. */
export interface AjvValidateFunction {
  (value: unknown): boolean;
  errors?: readonly AjvErrorObject[] | null | undefined;
}

/** Wraps an ajv validate function as a {@link SchemaValidator} answering `{ valid, issues }`. */
export function schemaValidatorFrom(validateFunction: AjvValidateFunction): SchemaValidator {
  return (value) =>
    validateFunction(value)
      ? { valid: true, issues: [] }
      : { valid: false, issues: issuesFromAjvErrors(validateFunction.errors) };
}

const unionKeywords = new Set(["oneOf", "anyOf"]);

/**
 * Turns ajv's errors (collected with `allErrors`) into issues: one readable sentence per
 * problem, at the JSON Pointer of the offending value, deduplicated, in schema order.
 *
 * Union failures are narrowed the way zod narrows a discriminated union: the branches whose
 * discriminator (`const` on a direct property) does not match are dropped, so a review work item
 * without `review_context` yields that one issue instead of every branch's complaints.
 */
export function issuesFromAjvErrors(
  errors: readonly AjvErrorObject[] | null | undefined,
): ValidationIssue[] {
  if (!errors || errors.length === 0) return [];
  const narrowed = narrowUnions(errors);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of narrowed) {
    if (isSupersededPropertyNamesError(error, narrowed)) continue;
    const issue = { path: error.instancePath, message: messageOf(error) };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function messageOf(error: AjvErrorObject): string {
  const base = error.message ?? `must pass "${error.keyword}" keyword validation`;
  const params = error.params;
  let message = base;
  switch (error.keyword) {
    case "additionalProperties":
      if (typeof params.additionalProperty === "string")
        message = `must NOT have additional property '${params.additionalProperty}'`;
      break;
    case "enum":
      if (Array.isArray(params.allowedValues))
        message = `${base}: ${params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
      break;
    case "const":
      message = `${base} ${JSON.stringify(params.allowedValue)}`;
      break;
    case "pattern":
      if (typeof params.pattern === "string") message = patternMessages.get(params.pattern) ?? base;
      break;
    case "propertyNames":
      if (typeof params.propertyName === "string")
        message = `property name '${params.propertyName}' must be valid`;
      break;
  }
  // An error of a `propertyNames` subschema is about the name, not the value.
  return error.propertyName === undefined
    ? message
    : `property name '${error.propertyName}' ${message}`;
}

/** ajv adds a vague `propertyNames` error after the precise errors of its subschema. */
function isSupersededPropertyNamesError(
  error: AjvErrorObject,
  errors: readonly AjvErrorObject[],
): boolean {
  return (
    error.keyword === "propertyNames" &&
    errors.some(
      (other) =>
        other.propertyName !== undefined &&
        other.propertyName === error.params.propertyName &&
        other.instancePath === error.instancePath &&
        other.schemaPath.startsWith(`${error.schemaPath}/`),
    )
  );
}

/** Replaces each failed `oneOf`/`anyOf` and its branches' errors by what the caller must fix. */
function narrowUnions(errors: readonly AjvErrorObject[]): AjvErrorObject[] {
  const dropped = new Set<AjvErrorObject>();
  const replacements = new Map<AjvErrorObject, AjvErrorObject[]>();
  // Outermost unions first: narrowing one may drop the unions nested in its other branches.
  const unions = errors
    .filter((error) => unionKeywords.has(error.keyword))
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const union of unions) {
    if (dropped.has(union)) continue;
    const branches = branchErrors(union, errors, dropped);
    if (branches.size === 0) continue; // e.g. more than one oneOf branch passed: keep the error
    const all = [...branches.values()].flat();
    const discriminatorErrors = new Map<number, AjvErrorObject>();
    for (const [index, branch] of branches) {
      const mismatch = branch.find((error) => isDiscriminatorMismatch(union, index, error));
      if (mismatch) discriminatorErrors.set(index, mismatch);
    }
    const candidates = [...branches.keys()].filter((index) => !discriminatorErrors.has(index));
    if (candidates.length === 1) {
      // The discriminator selects one branch: its errors are the answer.
      dropped.add(union);
      for (const [index, branch] of branches)
        if (index !== candidates[0]) for (const error of branch) dropped.add(error);
      continue;
    }
    for (const error of all) dropped.add(error);
    if (candidates.length === 0) {
      // No branch accepts the discriminator's value: say which values it accepts.
      const mismatches = [...discriminatorErrors.values()];
      const path = mismatches[0]?.instancePath ?? union.instancePath;
      if (mismatches.every((error) => error.instancePath === path)) {
        dropped.add(union);
        replacements.set(union, [
          {
            instancePath: path,
            schemaPath: union.schemaPath,
            keyword: "enum",
            params: { allowedValues: mismatches.map((error) => error.params.allowedValue) },
            message: "must be equal to one of the allowed values",
          },
        ]);
      }
      continue;
    }
    // Several branches remain (e.g. the discriminator is missing): report what they all say.
    const [first, ...others] = candidates.map((index) => branches.get(index) ?? []);
    const common = (first ?? []).filter((error) =>
      others.every((branch) => branch.some((other) => sameIssue(error, other))),
    );
    if (common.length > 0) {
      dropped.add(union);
      replacements.set(union, common);
    }
  }
  const result: AjvErrorObject[] = [];
  for (const error of errors) {
    const replacement = replacements.get(error);
    if (replacement) result.push(...replacement);
    else if (!dropped.has(error)) result.push(error);
  }
  return result;
}

/** The errors of each branch of a union, by branch index. */
function branchErrors(
  union: AjvErrorObject,
  errors: readonly AjvErrorObject[],
  dropped: ReadonlySet<AjvErrorObject>,
): Map<number, AjvErrorObject[]> {
  const prefix = `${union.schemaPath}/`;
  const branches = new Map<number, AjvErrorObject[]>();
  for (const error of errors) {
    if (error === union || dropped.has(error) || !error.schemaPath.startsWith(prefix)) continue;
    if (!isAtOrBelow(error.instancePath, union.instancePath)) continue;
    const index = Number.parseInt(error.schemaPath.slice(prefix.length), 10);
    if (Number.isNaN(index)) continue;
    const branch = branches.get(index);
    if (branch) branch.push(error);
    else branches.set(index, [error]);
  }
  return branches;
}

/** A `const` on a direct property of the union's value failed: that branch is not the one meant. */
function isDiscriminatorMismatch(
  union: AjvErrorObject,
  index: number,
  error: AjvErrorObject,
): boolean {
  if (error.keyword !== "const") return false;
  const branchPath = `${union.schemaPath}/${index}/properties/`;
  if (!error.schemaPath.startsWith(branchPath)) return false;
  if (!/^[^/]+\/const$/.test(error.schemaPath.slice(branchPath.length))) return false;
  const rest = error.instancePath.slice(union.instancePath.length);
  return isAtOrBelow(error.instancePath, union.instancePath) && /^\/[^/]*$/.test(rest);
}

/** `path` is the JSON Pointer `ancestor` or one inside it (`/list/10` is not inside `/list/1`). */
function isAtOrBelow(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

function sameIssue(a: AjvErrorObject, b: AjvErrorObject): boolean {
  return a.instancePath === b.instancePath && messageOf(a) === messageOf(b);
}
