// Reading a Sage document back into the object renderSubagentContext takes.
import { parseSubagentContext } from "@task-context/protocols/sage";

const doc = parseSubagentContext(
  '<subagent-context version="1.0"><task><id>T-1</id><type>plan</type><description>Plan the export</description></task><instructions/><scope><files-to-modify/><files-to-read/><files-forbidden/></scope><context/><output-format><required-fields/><optional-fields/></output-format></subagent-context>',
);
console.log(doc.task); // { id: "T-1", type: "plan", description: "Plan the export" }
