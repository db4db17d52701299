// The task the demo's main agent works on: the launch of a product whose name a model without
// context misreads. Everything the agent delegates is derived from these texts.
import type { ContextBlock } from "@task-context/protocols/context-block";

//#region contextMd
/** The CONTEXT.md the main agent writes before it delegates anything. */
export const LAUNCH_CONTEXT_MD = `# Task context

## What we are building
The launch of Lumen 2.0, "Threads". Lumen is a note-taking app for researchers; this release links notes into threads. We are preparing the announcement post, alt text for the screenshots, a visual brief and a hero image.

## Key terminology
- **Lumen**: the product. "LUMEN" in capitals on a screenshot is the product's wordmark, not a hospital, a clinic or a lighting brand.
- **Thread**: a linked chain of notes, the feature this release launches. Not a sewing thread, not a chat thread.
- **Vault**: a user's collection of notes. Not a bank vault.

## Visual and brand guidelines
- Colours: deep teal #0F4C5C and warm white #FAF7F2; never pure black.
- In running text write "Lumen"; never write "LUMEN" (the capitals belong to the wordmark).
- Never write "hospital" or "clinic" near the product's name.

## Other details
Audience: graduate students and lab researchers. Tone: calm, precise, no hype. At most 120 words per post.
`;
//#endregion

/** The project every subagent's prompt starts with, as a Context Protocol v1 block. */
export function launchProject(root: string): ContextBlock {
  return {
    version: 1,
    project: { path: root, stack: "markdown-site", commands: { build: "npm run build" } },
    conventions: { summary: "Markdown in site/, one file per page. British spelling." },
    currentWork: { story: "Lumen 2.0 launch" },
  };
}

/** The screenshot the demo ships, where the wordmark is read: `assets/launch-screenshot.png`. */
export const SCREENSHOT_PATH = "assets/launch-screenshot.png";

/** What the main agent asks the vision model about the screenshot. */
export const SCREENSHOT_QUESTION =
  "What is the name in large letters on this screenshot, and what is it the name of?";

/** What the main agent asks the image model for. */
export const HERO_IMAGE_REQUEST = "A hero image for the launch page.";

/** The lines of a `## heading` section of a Markdown text, without the heading. */
export function sectionLines(markdown: string, heading: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) return [];
  const end = lines.findIndex((line, index) => index > start && line.startsWith("## "));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** The run's constraints: the brand rules and the other details, one per line, without bullets. */
export function launchConstraints(contextMd: string): string[] {
  return [
    ...sectionLines(contextMd, "Visual and brand guidelines"),
    ...sectionLines(contextMd, "Other details"),
  ].map((line) => line.replace(/^- /, ""));
}
