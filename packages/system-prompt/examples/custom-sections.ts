// Sections of your own, composed with the built-in ones by their order.
import { buildSystemPrompt } from "@task-context/system-prompt";

const system = buildSystemPrompt({
  base: "You are a launch assistant for mobile apps.",
  tools: ["generate_image"],
  sections: [
    { id: "safety", text: "Never share credentials.", order: 50 }, // between base and task-context
    { id: "style", text: "Write in British English." }, // after the built-ins (order 300)
  ],
});
