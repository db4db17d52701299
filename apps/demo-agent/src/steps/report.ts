// Step 5: what every recipient received, as a table, and the trace written to a file.
import type { TaskContext } from "@task-context/core";
import type { DemoContext, Recipient } from "../demo-context.ts";

/** The table's columns, in order. */
export const TABLE_HEADER = [
  "recipient",
  "kind",
  "context sha256",
  "view",
  "tokens",
  "without views",
  "truncated",
] as const;

/** The columns of numbers, right-aligned. */
const NUMBER_COLUMNS: ReadonlySet<number> = new Set([4, 5]);

/**
 * One recipient as the table's cells. "without views": the tokens it would have received with the
 * whole CONTEXT.md — the same as "tokens" for a recipient without a view.
 */
export function tableCells(recipient: Recipient): string[] {
  const received = recipient.contextSha256 !== undefined;
  return [
    recipient.recipient,
    recipient.kind,
    received ? (recipient.contextSha256 as string).slice(0, 12) : "-",
    recipient.view ?? "-",
    String(recipient.tokens),
    received ? String(recipient.tokensWithoutViews ?? recipient.tokens) : "-",
    recipient.truncated === undefined ? "-" : recipient.truncated ? "yes" : "no",
  ];
}

/** The table as aligned plain text (numbers right-aligned), for the terminal. */
export function plainTable(recipients: readonly Recipient[]): string {
  const rows = [[...TABLE_HEADER], ...recipients.map(tableCells)];
  const widths = TABLE_HEADER.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? "").length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          NUMBER_COLUMNS.has(column)
            ? cell.padStart(widths[column] ?? 0)
            : cell.padEnd(widths[column] ?? 0),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The table as Markdown, for the trace. */
export function markdownTable(recipients: readonly Recipient[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(TABLE_HEADER),
    line(TABLE_HEADER.map((_, column) => (NUMBER_COLUMNS.has(column) ? "---:" : "---"))),
    ...recipients.map((recipient) => line(tableCells(recipient))),
  ].join("\n");
}

/** The demo's closing line: what the run showed. */
export const WHY_IT_MATTERS =
  "Why it matters: the vision model's two answers in step 2 differ only by the task context it received; every recipient above received that context, with its hash, its size and any truncation visible.";

/** Runs step 5: prints the table and adds it to the trace (the caller writes the file). */
export function report(demo: DemoContext, context: TaskContext, tracePath: string): void {
  const { progress, trace, recipients } = demo;
  progress.start(5, "What every recipient received");
  const received = recipients.filter((recipient) => recipient.contextSha256 !== undefined);
  const same = received.filter((recipient) => recipient.contextSha256 === context.sha256);
  progress.detail(plainTable(recipients));
  const cut = received.filter((recipient) => recipient.truncated === true).length;
  const redacted = received.filter((recipient) => (recipient.secretsRedacted ?? 0) > 0).length;
  const viewed = received.filter((recipient) => recipient.view !== undefined);
  const views = viewed.map(
    (recipient) =>
      `${recipient.view}: ${recipient.tokens} tokens instead of ${recipient.tokensWithoutViews ?? recipient.tokens}`,
  );
  const summary = `${same.length} of ${received.length} recipients with a task context received the main agent's CONTEXT.md exactly (sha256 ${context.sha256.slice(0, 12)})${viewed.length === 0 ? "" : `; ${viewed.length} received a view of it (${views.join("; ")})`}${cut === 0 ? "" : `; ${cut} received an oversized one, truncated`}${redacted === 0 ? "" : `; ${redacted} received one with a pasted API key, redacted`}`;
  progress.detail(summary);
  progress.detail(WHY_IT_MATTERS);
  trace.section("5. What every recipient received");
  trace.text(
    `Tokens: o200k tokens of everything the recipient received as text; without views: what it would have received with the whole CONTEXT.md. ${summary}.`,
  );
  trace.text(markdownTable(recipients));
  trace.text(WHY_IT_MATTERS);
  progress.done(5, `trace written to ${tracePath}`);
}
