// Getting started, step 3: the first injected call. No SDK needed: any client that sends a
// prompt to a model will do; here, fetch and an OpenAI-compatible Chat Completions endpoint.
import { injectTaskContext, loadTaskContext } from "@task-context/core";

const context = await loadTaskContext("."); // ./CONTEXT.md, at most 10 000 characters
if (context.warning) console.warn(context.warning); // e.g. it was truncated: shorten it

const baseUrl = process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1";
const response = await fetch(`${baseUrl}/chat/completions`, {
  method: "POST",
  headers: {
    Authorization: `Bearer ${process.env.OPENAI_API_KEY}`,
    "Content-Type": "application/json",
  },
  body: JSON.stringify({
    model: "gpt-5-mini",
    messages: [
      {
        role: "user",
        content: injectTaskContext("Suggest three headlines for the store listing.", context),
        // "[Task Context]\n{CONTEXT.md}\n\n[Request]\nSuggest three headlines for the store listing."
      },
    ],
  }),
});
const completion = (await response.json()) as { choices: { message: { content: string } }[] };
console.log(completion.choices[0]?.message.content);
