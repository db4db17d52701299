// What the stand-in models answer. Every answer is derived from the request alone — the task
// context it carries, the Context Protocol block, the image's pixels, the rules quoted in it — and
// nothing is keyed to a step of the demo, so an answer proves what arrived.
import { splitTaskContext } from "@task-context/core";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { decodePng } from "../image/png.ts";
import { readText, type TextLine } from "../image/read-text.ts";

/**
 * The stand-in's "general knowledge": what a model that knows only the world, not the task,
 * makes of a word. Real models carry far more; these are the readings the launch's terms invite.
 */
const GENERAL_KNOWLEDGE: Readonly<Record<string, string>> = {
  lumen:
    "most likely the name of a hospital or a clinic (in anatomy, a lumen is the inside space of a blood vessel)",
  vault: "most likely a bank or a safe-deposit company",
  thread: "most likely a sewing or textile brand",
  threads: "most likely a social network",
};

/** Markdown emphasis and list markers removed from a line. */
const plain = (line: string) => line.replace(/^[-*]\s+/, "").replaceAll("**", "");

/** The first sentences of a Markdown section, or undefined without one. */
function sectionText(markdown: string, heading: string): string | undefined {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) return undefined;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    if (line.trim() !== "") body.push(plain(line.trim()));
  }
  return body.length === 0 ? undefined : body.join(" ");
}

/** `#RRGGBB` colours named in a text, in order, each once. */
export function hexColours(text: string): string[] {
  return [
    ...new Set((text.match(/#[0-9A-Fa-f]{6}\b/g) ?? []).map((colour) => colour.toUpperCase())),
  ];
}

/** What a vision model answers about an image, with the task context it received (if any). */
export function describeImage(
  image: Uint8Array,
  request: string,
  context: string | undefined,
): string {
  const decoded = decodePng(image);
  const lines: TextLine[] = decoded === undefined ? [] : readText(decoded);
  if (lines.length === 0) return "I cannot make out any text in this image.";
  const [largest, ...rest] = [...lines].sort((a, b) => b.height - a.height) as [
    TextLine,
    ...TextLine[],
  ];
  const name = largest.text;
  const smaller = rest.map((line) => ` The smaller text reads "${line.text}".`).join("");
  const asked = /\bwhat\b/i.test(request) ? "" : ` (asked: ${request.trim()})`;
  if (context !== undefined) {
    const word = new RegExp(`\\b${name.split(" ")[0]}\\b`, "i");
    const mentions = context.split("\n").filter((line) => word.test(line));
    const definition = mentions.find((line) => line.trim().startsWith("- **")) ?? mentions[0];
    if (definition !== undefined) {
      return `The large text reads "${name}". The task context I received says: ${plain(definition.trim())}${smaller}${asked}`;
    }
  }
  const guess = GENERAL_KNOWLEDGE[name.toLowerCase()];
  return guess === undefined
    ? `The large text reads "${name}"; I cannot tell what it names.${smaller}${asked}`
    : `The large text reads "${name}": ${guess}.${smaller}${asked}`;
}

/** The terms a text forbids: every quoted word after "never write", e.g. `Never write "X" or "Y"`. */
export function forbiddenTerms(text: string): string[] {
  const terms: string[] = [];
  for (const rule of text.matchAll(/never write((?:\s*(?:,|or)?\s*"[^"\n]+")+)/gi)) {
    for (const quoted of (rule[1] as string).matchAll(/"([^"\n]+)"/g))
      terms.push(quoted[1] as string);
  }
  return [...new Set(terms)];
}

/** Where `term` occurs: exactly for a term in capitals, without regard to case otherwise. */
function occurs(term: string, text: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const flags = term === term.toUpperCase() ? "" : "i";
  return new RegExp(`\\b${escaped}\\b`, flags).test(text);
}

/**
 * A text fenced as data (core's `fenceUntrustedText`) as a model reads it: the lines between the
 * fence's opening and closing lines, without their `│` prefix. Any other text unchanged.
 */
function unfenced(text: string): string {
  const lines = text.split("\n");
  if (!(lines[0] ?? "").startsWith("<<<untrusted data from ") || lines.length < 3) return text;
  return lines
    .slice(1, -1)
    .map((line) => line.replace(/^│ ?/, ""))
    .join("\n");
}

/**
 * A text between `<artifact>` and `</artifact>` (unfenced when it is fenced as data), and the
 * `Criteria:` list of a review request.
 */
function reviewParts(request: string) {
  const artifact = unfenced(/<artifact[^>]*>\n?([\s\S]*?)\n?<\/artifact>/.exec(request)?.[1] ?? "");
  const criteria = (/Criteria:\n((?:- .+\n?)+)/.exec(request)?.[1] ?? "")
    .split("\n")
    .filter((line) => line.startsWith("- "))
    .map((line) => line.slice(2).trim());
  return { artifact, criteria };
}

/**
 * A review as JSON `{ verdict, summary, criteria: [{ criterion, comment }] }`: the artifact is
 * checked against the "never write" rules and the word limit ("at most N words") found in the
 * request and its task context.
 */
export function reviewArtifact(request: string, context: string | undefined): string {
  const { artifact, criteria } = reviewParts(request);
  const rules = `${context ?? ""}\n${request.replace(/<artifact[\s\S]*<\/artifact>/, "")}`;
  const terms = forbiddenTerms(rules);
  const found = terms.filter((term) => occurs(term, artifact));
  const limit = /at most (\d+) words/i.exec(rules)?.[1];
  const words = artifact.split(/\s+/).filter((word) => word !== "").length;
  const tooLong = limit !== undefined && words > Number(limit);
  const termComment =
    terms.length === 0
      ? "No term rules were given to check."
      : found.length === 0
        ? `None of the forbidden terms (${terms.map((term) => `"${term}"`).join(", ")}) appears.`
        : `Uses forbidden terms: ${found.map((term) => `"${term}"`).join(", ")}.`;
  const lengthComment =
    limit === undefined
      ? `${words} words; no limit was given.`
      : `${words} words, limit ${limit}${tooLong ? ": too long" : ""}.`;
  const approved = found.length === 0 && !tooLong;
  return JSON.stringify({
    verdict: approved ? "approve" : "request_changes",
    summary: approved
      ? `Follows the rules it was given: ${termComment} ${lengthComment}`
      : `Breaks the rules it was given: ${termComment} ${lengthComment}`,
    criteria: criteria.map((criterion) => ({
      criterion,
      comment: /length|words/i.test(criterion) ? lengthComment : termComment,
    })),
  });
}

/**
 * A draft written from what arrived: the request's first line as its title, then what the task
 * context says is being built, the project from a Context Protocol block, and the colours the
 * context names — or a plain statement that no context arrived.
 */
export function draftText(request: string, context: string | undefined): string {
  const parsed = parseContextBlock(request);
  const task = parsed.status === "found" ? parsed.request : request;
  const title = (task.trim().split("\n")[0] ?? "").replace(/[.:]$/, "");
  const lines = [`# ${title}`, ""];
  if (context === undefined) {
    lines.push("No task context arrived with this request, so this draft knows only the request.");
  } else {
    const building = sectionText(context, "What we are building");
    if (building !== undefined) lines.push(building);
    const colours = hexColours(context);
    if (colours.length > 0) lines.push("", `Colours: ${colours.join(" and ")}.`);
  }
  if (parsed.status === "found") {
    const { project, conventions } = parsed.block;
    lines.push("", `Project: ${project.stack} at ${project.path}. ${conventions.summary}`);
  }
  return lines.join("\n");
}

/** What the stand-in chat model answers to a user message: its text and the images it carries. */
export function answerUserMessage(text: string, images: Uint8Array[]): string {
  const { context, prompt } = splitTaskContext(text);
  const [image] = images;
  if (image !== undefined) return describeImage(image, prompt, context);
  if (/answer with a JSON object/i.test(prompt)) return reviewArtifact(prompt, context);
  return draftText(prompt, context);
}
