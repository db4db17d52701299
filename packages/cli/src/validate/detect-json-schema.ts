import { type SchemaName, validate } from "@task-context/protocols";

/** The schemas a JSON (or YAML) document is matched against, most specific first. */
const CANDIDATES: readonly SchemaName[] = [
  "work-item.v1",
  "collaboration-event.v1",
  "review-feedback.v1",
  "artifact.v1",
  "subagent-output.v1",
  "stage-context.v1",
  "review-context.v1",
  "artifact-reference.v1",
  "context-block.v1",
  "context-limits.v1",
];

/** Required keys of a schema: the fields `validate` reports as required on an empty object. */
const requiredKeys = new Map<SchemaName, string[]>(
  CANDIDATES.map((name) => [
    name,
    validate(name, {})
      .issues.filter((issue) => / is required/.test(issue.message))
      .map((issue) => issue.path.split("/")[1] ?? "")
      .filter((key) => key !== ""),
  ]),
);

/** Which schema a document follows, judged by the required keys it has. */
export function detectJsonSchema(
  value: unknown,
): { kind: "one"; schema: SchemaName } | { kind: "none" | "ambiguous"; reason: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "none", reason: "it is not an object" };
  }
  const keys = new Set(Object.keys(value));
  const matching = CANDIDATES.filter((name) => {
    const required = requiredKeys.get(name) ?? [];
    return required.length > 0 && required.every((key) => keys.has(key));
  });
  if (matching.length === 0)
    return { kind: "none", reason: "it has the required keys of no published schema" };
  // The schema with the most required keys present wins; a tie is ambiguous.
  const size = (name: SchemaName) => requiredKeys.get(name)?.length ?? 0;
  const best = Math.max(...matching.map(size));
  const top = matching.filter((name) => size(name) === best);
  if (top.length > 1) {
    return {
      kind: "ambiguous",
      reason: `it fits ${top.map((name) => name.replace(/\.v1$/, "")).join(" and ")}`,
    };
  }
  return { kind: "one", schema: top[0] as SchemaName };
}
