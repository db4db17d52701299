// Every link from a page a user reads to a file of this repository resolves, and every anchor
// (`page.md#section`, `#section`) names a heading of its page, with GitHub's heading slugs.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { documentedPages, root } from "./documented-pages.ts";

/** GitHub's anchors for the headings of a Markdown file. */
function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const slug = (heading[1] ?? "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The link targets of a Markdown page outside code blocks and inline code. */
function linksOf(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[\s\S]*?^\1\s*$/gm, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? "");
}

describe("the links of the docs", () => {
  it("resolves every link to a file or folder of the repository, and every anchor", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of documentedPages()) {
      for (const link of linksOf(readFileSync(join(root, page), "utf8"))) {
        if (/^[a-z]+:/i.test(link)) continue; // https:, mailto: — outside the repository
        checked++;
        const [target = "", anchor] = link.split("#");
        const path = target === "" ? join(root, page) : join(root, dirname(page), target);
        const name = relative(root, path);
        if (!existsSync(path)) {
          problems.push(`${page}: ${link}: no ${name}`);
          continue;
        }
        if (anchor !== undefined && statSync(path).isFile() && path.endsWith(".md")) {
          if (!anchorsOf(path).has(anchor))
            problems.push(`${page}: ${link}: no heading #${anchor}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });
});
