import type { ProbeResult, SkippedPaths } from "./probe-paths.ts";

const HEADERS = ["path", "received", "verbatim", "view", "sections", "truncated", "receipt"];

const yesNo = (value: boolean | undefined) => (value === undefined ? "–" : value ? "yes" : "no");

/**
 * A probe result's cells: yes/no, `–` where nothing was said, the sections that arrived of those
 * owed (`3/4`), the receipt's first 12 digits.
 */
function cells(result: ProbeResult): string[] {
  return [
    result.path,
    yesNo(result.received),
    yesNo(result.verbatim),
    result.view ?? "–",
    result.sections === undefined ? "–" : `${result.sections.arrived}/${result.sections.expected}`,
    yesNo(result.truncated),
    result.receipt === undefined ? "–" : `sha256 ${result.receipt.slice(0, 12)}…`,
  ];
}

/**
 * The probe's results as an aligned plain-text table, one line per path, then one line per path
 * that failed, with why: its error, or what did not arrive.
 */
export function renderProbeTable(results: readonly ProbeResult[]): string {
  const rows = [HEADERS, ...results.map(cells)];
  const widths = HEADERS.map((_, column) =>
    Math.max(...rows.map((row) => row[column]?.length ?? 0)),
  );
  const table = rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join("  "),
  );
  const errors = results.flatMap((result) => {
    const why = result.error ?? result.reason;
    return why === undefined ? [] : [`${result.path}: ${why}`];
  });
  return [...table, ...(errors.length === 0 ? [] : ["", ...errors])].join("\n").concat("\n");
}

/** One line per group of paths that did not run here: `skipped: <names> (<reason>)`. */
export function renderSkippedPaths(skipped: readonly SkippedPaths[]): string {
  return skipped.map(({ names, reason }) => `skipped: ${names.join(", ")} (${reason})\n`).join("");
}
