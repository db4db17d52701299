// Rendering a Sage document: always well-formed XML, every string escaped.
import { renderSubagentContext } from "@task-context/protocols/sage";

const xml = renderSubagentContext({
  version: "1.0",
  task: { id: "T-1", type: "implement", description: "Add the <ExportButton> & its test" },
  instructions: ["Follow TDD: write failing test first"],
  scope: { "files-to-modify": ["src/export.ts"], "files-to-read": [], "files-forbidden": [] },
  context: [{ type: "story-excerpt", content: "Users export notes as Markdown." }],
  "output-format": { "required-fields": [], "optional-fields": [] },
});
console.log(xml);
// <?xml version="1.0" encoding="UTF-8"?>
// <subagent-context version="1.0">
//
//   <task>
//     <id>T-1</id>
//     <type>implement</type>
//     <description>Add the &lt;ExportButton&gt; &amp; its test</description>
//   </task>
//
//   <instructions>
//     <instruction>Follow TDD: write failing test first</instruction>
//   </instructions>
//
//   <scope>
//     <files-to-modify>
//       <file>src/export.ts</file>
//     </files-to-modify>
//     <files-to-read/>
//     <files-forbidden/>
//   </scope>
//
//   <context>
//     <item type="story-excerpt">Users export notes as Markdown.</item>
//   </context>
//
//   <output-format>
//     <required-fields/>
//     <optional-fields/>
//   </output-format>
//
// </subagent-context>
