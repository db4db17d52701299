// The stand-in over real HTTP: its answers come from the request it received — change the task
// context sent, and the answer changes with it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { injectTaskContext } from "@task-context/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng } from "../image/png.ts";
import { LAUNCH_CONTEXT_MD } from "../launch-task.ts";
import { type StandInServer, startStandInServer } from "./stand-in-server.ts";

let server: StandInServer;
let screenshot: string;

beforeAll(async () => {
  server = await startStandInServer();
  const bytes = await readFile(join(import.meta.dirname, "../../assets/launch-screenshot.png"));
  screenshot = `data:image/png;base64,${bytes.toString("base64")}`;
});

afterAll(() => server.close());

/** The parts of the OpenAI API's answers these tests read. */
interface Answer {
  object: string;
  model: string;
  choices: { message: { content: string } }[];
  data: { b64_json: string }[];
  error: { message: string; type: string };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${server.baseURL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

async function askAboutImage(text: string): Promise<string> {
  const { status, json } = await post("/chat/completions", {
    model: "any-model",
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text },
          { type: "image_url", image_url: { url: screenshot } },
        ],
      },
    ],
  });
  expect(status).toBe(200);
  expect(json.object).toBe("chat.completion");
  expect(json.model).toBe("any-model");
  return json.choices[0]?.message.content ?? "";
}

const QUESTION = "What is the name in large letters?";

describe("the stand-in vision model", () => {
  it("reads the screenshot's pixels and, without context, guesses from general knowledge", async () => {
    expect(await askAboutImage(QUESTION)).toBe(
      'The large text reads "LUMEN": most likely the name of a hospital or a clinic (in anatomy, a lumen is the inside space of a blood vessel). The smaller text reads "THREADS FOR EVERY VAULT".',
    );
  });

  it("answers from the definition in the task context it received", async () => {
    expect(await askAboutImage(injectTaskContext(QUESTION, LAUNCH_CONTEXT_MD))).toBe(
      'The large text reads "LUMEN". The task context I received says: Lumen: the product. "LUMEN" in capitals on a screenshot is the product\'s wordmark, not a hospital, a clinic or a lighting brand. The smaller text reads "THREADS FOR EVERY VAULT".',
    );
  });

  it("changes its answer when the context says something else", async () => {
    const context = "## Key terminology\n- **Lumen**: a lighting brand's desk lamp.";
    expect(await askAboutImage(injectTaskContext(QUESTION, context))).toBe(
      'The large text reads "LUMEN". The task context I received says: Lumen: a lighting brand\'s desk lamp. The smaller text reads "THREADS FOR EVERY VAULT".',
    );
  });

  it("says it cannot read an image that is not a PNG it can decode", async () => {
    const { json } = await post("/chat/completions", {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: QUESTION },
            { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/4AAQ" } },
          ],
        },
      ],
    });
    expect(json.choices[0]?.message.content).toBe("I cannot make out any text in this image.");
  });
});

describe("the stand-in writer and reviewer", () => {
  it("drafts from the context's 'What we are building' and colours, or says none arrived", async () => {
    const ask = async (content: string) =>
      (await post("/chat/completions", { messages: [{ role: "user", content }] })).json.choices[0]
        ?.message.content;
    expect(await ask("Write a tagline.")).toBe(
      "# Write a tagline\n\nNo task context arrived with this request, so this draft knows only the request.",
    );
    expect(
      await ask(
        injectTaskContext("Write a tagline.", "## What we are building\nA kettle.\n\nUse #112233."),
      ),
    ).toBe("# Write a tagline\n\nA kettle. Use #112233.\n\nColours: #112233.");
  });

  it("reviews against the 'never write' rules and the word limit it received", async () => {
    const request = [
      'Review. Never write "LUMEN" or "clinic". At most 5 words.',
      "Criteria:",
      "- brand rules",
      "- length",
      "",
      "<artifact>",
      "LUMEN is a clinic for your notes, really.",
      "</artifact>",
      "",
      "Answer with a JSON object.",
    ].join("\n");
    const { json } = await post("/chat/completions", {
      messages: [{ role: "user", content: request }],
    });
    expect(JSON.parse(json.choices[0]?.message.content ?? "")).toEqual({
      verdict: "request_changes",
      summary:
        'Breaks the rules it was given: Uses forbidden terms: "LUMEN", "clinic". 8 words, limit 5: too long.',
      criteria: [
        { criterion: "brand rules", comment: 'Uses forbidden terms: "LUMEN", "clinic".' },
        { criterion: "length", comment: "8 words, limit 5: too long." },
      ],
    });
  });
});

describe("the stand-in image model", () => {
  it("paints the first two colours of the prompt it received, grey and black without any", async () => {
    const colours = async (prompt: string) => {
      const { status, json } = await post("/images/generations", { prompt, n: 1 });
      expect(status).toBe(200);
      const image = decodePng(Buffer.from(json.data[0]?.b64_json ?? "", "base64"));
      if (image === undefined) throw new Error("not a PNG");
      const hex = (at: number) =>
        `#${[...image.pixels.subarray(at * 3, at * 3 + 3)]
          .map((value) => value.toString(16).padStart(2, "0"))
          .join("")
          .toUpperCase()}`;
      return [hex(0), hex(100 * image.width + 128)];
    };
    expect(await colours(injectTaskContext("A hero image.", LAUNCH_CONTEXT_MD))).toEqual([
      "#0F4C5C",
      "#FAF7F2",
    ]);
    expect(await colours("A hero image.")).toEqual(["#808080", "#000000"]);
  });
});

describe("the stand-in's HTTP surface", () => {
  it("refuses a body that is not JSON, a missing field and an unknown route with OpenAI-style errors", async () => {
    expect(await post("/chat/completions", "{")).toEqual({
      status: 400,
      json: { error: { message: "The body is not JSON.", type: "invalid_request_error" } },
    });
    expect(await post("/images/generations", { n: 1 })).toEqual({
      status: 400,
      json: { error: { message: "prompt: expected a string", type: "invalid_request_error" } },
    });
    expect(await post("/responses", {})).toEqual({
      status: 404,
      json: {
        error: {
          message:
            "The stand-in serves POST /v1/chat/completions and /v1/images/generations, not POST /v1/responses.",
          type: "invalid_request_error",
        },
      },
    });
  });
});
