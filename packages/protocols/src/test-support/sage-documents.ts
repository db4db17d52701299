// Fixtures shared by the sage tests.
import type { SubagentContext } from "../schemas/subagent-context.ts";

/** Spec 002's example document. */
export const specDocument: SubagentContext = {
  version: "1.0",
  task: {
    id: "story-12.task-3",
    type: "implement",
    description: "Add Markdown export to the note menu",
    "story-ref": "docs/stories/story-12.md",
  },
  instructions: [
    "Follow TDD: write failing test first",
    "Stay within scope - only modify listed files",
  ],
  scope: {
    "files-to-modify": ["src/export.ts", "src/menu.ts"],
    "files-to-read": ["src/note.ts"],
    "files-forbidden": ["src/generated/**"],
  },
  context: [
    { type: "story-excerpt", content: "Users export a note as Markdown from the note menu." },
    { type: "code-standards", content: "Named exports only.\nNo default exports." },
    { type: "prior-output", content: "Task 2 added the Note type." },
    { type: "file-content", path: "src/note.ts", content: "export interface Note {}" },
  ],
  "output-format": {
    "required-fields": [
      { name: "status", description: "success | failure | blocked" },
      { name: "summary", description: "Brief description of result" },
      { name: "files-modified", description: "List of files changed" },
    ],
    "optional-fields": [
      { name: "notes", description: "Additional context" },
      { name: "recommended-action", description: "Next step suggestion" },
    ],
  },
};

/** The smallest valid document. */
export const emptyDocument: SubagentContext = {
  version: "1.0",
  task: { id: "T-1", type: "plan", description: "" },
  instructions: [],
  scope: { "files-to-modify": [], "files-to-read": [], "files-forbidden": [] },
  context: [],
  "output-format": { "required-fields": [], "optional-fields": [] },
};

/**
 * Spec 002's `<instructions>` section as renderSubagentContext prints it: the example's two
 * directives, which are also generateContext's default for an implement task.
 */
export const specInstructionsXml = `  <instructions>
    <instruction>Follow TDD: write failing test first</instruction>
    <instruction>Stay within scope - only modify listed files</instruction>
  </instructions>`;

/**
 * Spec 002's `<output-format>` section as renderSubagentContext prints it: Sage's output format,
 * which is also generateContext's default.
 */
export const specOutputFormatXml = `  <output-format>
    <required-fields>
      <field name="status">success | failure | blocked</field>
      <field name="summary">Brief description of result</field>
      <field name="files-modified">List of files changed</field>
    </required-fields>
    <optional-fields>
      <field name="notes">Additional context</field>
      <field name="recommended-action">Next step suggestion</field>
    </optional-fields>
  </output-format>`;
