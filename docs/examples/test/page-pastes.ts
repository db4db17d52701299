// Test helper: what a page asks a user to paste — its complete examples, its npm commands and its
// Deno command lines. Read by the paste test (scripts/paste-docs.mjs), which runs them, and by
// code-blocks.test.ts.
import { basename, join } from "node:path";
import { root } from "./documented-pages.ts";
import { type Fence, markdownFences } from "./markdown-fences.ts";
import { commandsOf, wordsOf } from "./shell-commands.ts";

const SHELL = ["sh", "bash", "shell"];
const CODE = ["ts", "typescript"];

/** A complete example of a page, and the output the page shows for it, if any. */
export interface PastedExample {
  fence: Fence;
  /** The name it is saved under: its examples file's name. */
  file: string;
  /** The body of the `<!-- check: output -->` block after it. */
  output: string | undefined;
}

/** What a page asks a user to paste. */
export interface PagePastes {
  page: string;
  examples: PastedExample[];
  /** Packages its examples import that none of its install lines names. */
  unnamed: string[];
  /** Its `npm init`, `npm pkg` and `npm install` commands, in order, as words. */
  setup: string[][];
  /** Its `deno run …` command lines, as words. */
  deno: string[][];
}

/**
 * A complete example: a `ts` block that shows a whole examples file. A block that shows a
 * `#region` is an excerpt, which its first line says (scripts/sync-examples.mjs writes it).
 */
const isComplete = (fence: Fence) =>
  CODE.includes(fence.language) && /\bsource="[^"#]+"/.test(fence.info);

/** The packages `code` imports (`@scope/name` or `name`), without Node's own modules. */
export function packagesImportedBy(code: string): string[] {
  return [...code.matchAll(/^\s*import\b[^"';]*?\bfrom\s+"([^"]+)"|^\s*import\s+"([^"]+)"/gm)]
    .map((match) => match[1] ?? match[2] ?? "")
    .filter((specifier) => !specifier.startsWith("node:") && !specifier.startsWith("."))
    .map((specifier) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/"),
    );
}

const isNpm = (words: string[], ...verbs: string[]) =>
  words[0] === "npm" && verbs.includes(words[1] ?? "");

/** What `page` (relative to the repository root) asks a user to paste. */
export function pastesOf(page: string): PagePastes {
  const fences = markdownFences(join(root, page), page);
  const commands = fences
    .filter((fence) => SHELL.includes(fence.language))
    .flatMap((fence) => commandsOf(fence).map(wordsOf));
  const examples: PastedExample[] = [];
  for (const fence of fences) {
    if (isComplete(fence)) {
      const source = /\bsource="([^"#]+)"/.exec(fence.info)?.[1] ?? "";
      examples.push({ fence, file: basename(source), output: undefined });
    } else if (fence.check === "output" && examples.length > 0) {
      const last = examples[examples.length - 1];
      if (last !== undefined) last.output = fence.body;
    }
  }
  const installed = new Set(
    commands
      .filter((words) => isNpm(words, "install", "i"))
      .flatMap((words) => words.slice(2).filter((word) => !word.startsWith("-"))),
  );
  const imported = new Set(examples.flatMap((example) => packagesImportedBy(example.fence.body)));
  return {
    page,
    examples,
    unnamed: [...imported].filter((name) => !installed.has(name)),
    setup: commands.filter((words) => isNpm(words, "init", "pkg", "install", "i")),
    deno: commands.filter((words) => words[0] === "deno" && words[1] === "run"),
  };
}
