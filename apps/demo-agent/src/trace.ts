// The demo's trace: everything every recipient received, as one Markdown file that reads in any
// editor or renders in a browser's Markdown viewer.
import { writeFile } from "node:fs/promises";

/** A fence longer than any run of backticks in `text`, so that no content can close it. */
function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  return "`".repeat(longest + 1);
}

/** A fenced block of `text`, with an info string such as `text`, `json`, `xml`. */
export function fenced(text: string, language = "text"): string {
  const fence = fenceFor(text);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The trace under construction. */
export class Trace {
  private readonly parts: string[] = [];

  constructor(title: string, intro: string) {
    this.parts.push(`# ${title}`, "", intro, "");
  }

  /** A `## heading`. */
  section(title: string): void {
    this.parts.push(`## ${title}`, "");
  }

  /** A paragraph of Markdown. */
  text(markdown: string): void {
    this.parts.push(markdown, "");
  }

  /** A labelled, fenced block. */
  block(label: string, content: string, language = "text"): void {
    this.parts.push(`**${label}**`, "", fenced(content, language), "");
  }

  /** The trace as Markdown. */
  toMarkdown(): string {
    return `${this.parts.join("\n").trimEnd()}\n`;
  }

  /** Writes the trace to `path`. */
  async write(path: string): Promise<void> {
    await writeFile(path, this.toMarkdown());
  }
}
