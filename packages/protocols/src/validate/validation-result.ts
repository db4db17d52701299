/** One way a value breaks a schema. */
export interface ValidationIssue {
  /**
   * JSON Pointer (RFC 6901) of the offending value: `""` for the root, `"/project/path"` for a
   * nested one. For a missing or an extra property it points at the object that should (not)
   * have it, and `message` names the property.
   */
  path: string;
  /** A readable sentence, e.g. `must have required property 'summary'`. */
  message: string;
}

/** The answer of `validate()`: the same on every runtime. */
export interface ValidationResult {
  /** True when the value conforms to the schema; `issues` is then empty. */
  valid: boolean;
  /** Every problem found, in schema order. */
  issues: ValidationIssue[];
}

/** Validates one value against one published schema. */
export type SchemaValidator = (value: unknown) => ValidationResult;
