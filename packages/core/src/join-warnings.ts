/**
 * The warnings of one delivery as the one `warning` its receipt carries: those given, in order,
 * joined by a space; undefined when there is none (each `undefined` or `""` counts as none).
 *
 * @internal
 */
export function joinWarnings(warnings: readonly (string | undefined)[]): string | undefined {
  const given = warnings.filter(
    (warning): warning is string => warning !== undefined && warning !== "",
  );
  return given.length === 0 ? undefined : given.join(" ");
}
