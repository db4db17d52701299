// End to end over real HTTP: a loopback server that speaks the OpenAI API, reached through the
// AI SDK's own providers (@ai-sdk/openai-compatible for chat and images, @ai-sdk/openai for speech
// and transcription, which openai-compatible does not offer). The assertions are on the bytes that
// reached the server.
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { memoryWorkspace } from "@task-context/core";
import { generateText, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createMediaTools, taskContextMiddleware } from "./index.ts";
import { call, injected, MP3, PNG, WAV } from "./test-support/fixtures.ts";

/** Non-ASCII on purpose: the bytes must survive JSON and multipart encoding unchanged. */
const CONTEXT = "Lumen — a note-taking app for researchers.\nLUMEN is the wordmark; café ✓ 𝄞";
/** The receipt the tools must return: SHA-256 of CONTEXT's UTF-8 bytes, computed independently. */
const CONTEXT_SHA256 = createHash("sha256").update(CONTEXT, "utf8").digest("hex");

interface Received {
  method: string;
  path: string;
  contentType: string;
  body: Buffer;
}

let server: Server;
let baseURL: string;
const received: Received[] = [];
/** What the next request to a path answers, when a test overrides the default. */
const overrides = new Map<string, (response: import("node:http").ServerResponse) => void>();

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function json(response: import("node:http").ServerResponse, status: number, value: unknown) {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const body = await readBody(request);
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    received.push({
      method: request.method ?? "",
      path,
      contentType: request.headers["content-type"] ?? "",
      body,
    });
    const override = overrides.get(path);
    if (override !== undefined) {
      overrides.delete(path);
      override(response);
      return;
    }
    switch (path) {
      case "/v1/chat/completions":
        return json(response, 200, {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1_700_000_000,
          model: "vision-model",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: "The header says LUMEN." },
              finish_reason: "stop",
            },
          ],
          usage: { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55 },
        });
      case "/v1/images/generations":
        return json(response, 200, {
          created: 1_700_000_000,
          data: [{ b64_json: Buffer.from(PNG).toString("base64") }],
        });
      case "/v1/audio/speech":
        response.writeHead(200, { "content-type": "audio/mpeg" });
        return response.end(Buffer.from(MP3));
      case "/v1/audio/transcriptions":
        return json(response, 200, {
          text: "LUMEN ships on Monday.",
          language: "en",
          duration: 1.5,
        });
      default:
        return json(response, 404, { error: { message: `no route ${path}` } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
  overrides.clear();
});

function providers() {
  const compatible = createOpenAICompatible({ name: "wire", baseURL, apiKey: "test-key" });
  const openai = createOpenAI({ baseURL, apiKey: "test-key" });
  return { compatible, openai };
}

function tools(files: Record<string, string | Uint8Array> = {}, timeoutMs?: number) {
  const { compatible, openai } = providers();
  const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, ...files });
  return {
    workspace,
    tools: createMediaTools({
      workspace,
      models: {
        understanding: compatible.chatModel("vision-model"),
        image: compatible.imageModel("image-model"),
        speech: openai.speech("gpt-4o-mini-tts"),
        transcription: openai.transcription("whisper-1"),
      },
      maxRetries: 0,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }),
  };
}

/** How often `needle` occurs in `haystack`. */
function occurrences(haystack: Buffer, needle: string): number {
  const bytes = Buffer.from(needle, "utf8");
  let count = 0;
  for (let at = haystack.indexOf(bytes); at !== -1; at = haystack.indexOf(bytes, at + 1)) count++;
  return count;
}

/** The JSON-escaped form of a string, as bytes inside a JSON body (without the quotes). */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

describe("over the wire: OpenAI API on loopback through the AI SDK's providers", () => {
  it("understand_image: chat completions with an image part, the context injected once", async () => {
    const { tools: media } = tools({ "screens/home.png": PNG });
    const result = await call(media.read_media, {
      path: "screens/home.png",
      prompt: "What does the header say?",
    });
    expect(result).toEqual({
      success: true,
      tool: "understand_image",
      path: "screens/home.png",
      mediaType: "image/png",
      size: PNG.length,
      text: "The header says LUMEN.",
      contextSha256: CONTEXT_SHA256,
    });
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.path).toBe("/v1/chat/completions");
    const body = JSON.parse(request?.body.toString("utf8") ?? "");
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: injected("What does the header say?", CONTEXT) },
          {
            type: "image_url",
            image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString("base64")}` },
          },
        ],
      },
    ]);
    const raw = request?.body ?? Buffer.alloc(0);
    expect(occurrences(raw, escaped(injected("What does the header say?", CONTEXT)))).toBe(1);
    expect(occurrences(raw, "[Task Context]")).toBe(1);
    expect(occurrences(raw, "[Request]")).toBe(1);
  });

  it("generate_image: /images/generations with the injected prompt, b64_json written to the workspace", async () => {
    const { tools: media, workspace } = tools();
    const result = await call(media.generate_media, {
      type: "image",
      prompt: "A hero image with the wordmark.",
      size: "1024x1024",
    });
    expect(result).toMatchObject({ success: true, tool: "generate_image", mediaType: "image/png" });
    const [request] = received;
    expect(request?.path).toBe("/v1/images/generations");
    const body = JSON.parse(request?.body.toString("utf8") ?? "");
    expect(body).toMatchObject({
      model: "image-model",
      prompt: injected("A hero image with the wordmark.", CONTEXT),
      n: 1,
      size: "1024x1024",
    });
    expect(occurrences(request?.body ?? Buffer.alloc(0), "[Task Context]")).toBe(1);
    const path = (result as { path: string }).path;
    expect(Buffer.from((await workspace.readFile(path)).bytes)).toEqual(Buffer.from(PNG));
  });

  it("generate_audio: /audio/speech with the context in instructions, audio bytes written", async () => {
    const { tools: media, workspace } = tools();
    const result = await call(media.generate_audio, {
      text: "Welcome to Lumen.",
      prompt: "Warm, unhurried.",
      voice: "alloy",
    });
    expect(result).toMatchObject({
      success: true,
      tool: "generate_audio",
      mediaType: "audio/mpeg",
    });
    const [request] = received;
    expect(request?.path).toBe("/v1/audio/speech");
    const body = JSON.parse(request?.body.toString("utf8") ?? "");
    expect(body).toMatchObject({
      model: "gpt-4o-mini-tts",
      input: "Welcome to Lumen.",
      voice: "alloy",
      instructions: injected("Warm, unhurried.", CONTEXT),
    });
    expect(occurrences(request?.body ?? Buffer.alloc(0), "[Task Context]")).toBe(1);
    const path = (result as { path: string }).path;
    expect(path).toMatch(/\.mp3$/);
    expect(Buffer.from((await workspace.readFile(path)).bytes)).toEqual(Buffer.from(MP3));
  });

  it("understand_audio: /audio/transcriptions multipart with the injected prompt field, byte for byte", async () => {
    const { tools: media } = tools({ "calls/standup.wav": WAV });
    const result = await call(media.read_media, {
      path: "calls/standup.wav",
      prompt: "Transcribe the stand-up.",
    });
    expect(result).toMatchObject({
      success: true,
      tool: "understand_audio",
      mediaType: "audio/wav",
      text: "LUMEN ships on Monday.",
      durationInSeconds: 1.5,
      contextSha256: CONTEXT_SHA256,
    });
    const [request] = received;
    expect(request?.path).toBe("/v1/audio/transcriptions");
    expect(request?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const raw = request?.body ?? Buffer.alloc(0);
    // multipart/form-data turns every line break of a string field into CRLF (the WHATWG
    // FormData serialisation every fetch implements), so that is what the provider receives.
    const sent = injected("Transcribe the stand-up.", CONTEXT).replaceAll("\n", "\r\n");
    const field = `Content-Disposition: form-data; name="prompt"\r\n\r\n${sent}\r\n--`;
    expect(occurrences(raw, field)).toBe(1);
    expect(occurrences(raw, "[Task Context]")).toBe(1);
    const form = await new Response(new Uint8Array(raw), {
      headers: { "content-type": request?.contentType ?? "" },
    }).formData();
    expect(form.get("prompt")).toBe(sent);
    expect(form.get("model")).toBe("whisper-1");
    const file = form.get("file") as File;
    expect(file.type).toBe("audio/wav");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(WAV);
  });

  it("taskContextMiddleware: a wrapped model's chat request carries the context once", async () => {
    const { compatible } = providers();
    const model = wrapLanguageModel({
      model: compatible.chatModel("vision-model"),
      middleware: taskContextMiddleware({ workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }) }),
    });
    const { text } = await generateText({ model, prompt: "Name three headlines.", maxRetries: 0 });
    expect(text).toBe("The header says LUMEN.");
    const body = JSON.parse(received[0]?.body.toString("utf8") ?? "");
    expect(body.messages).toEqual([
      { role: "user", content: injected("Name three headlines.", CONTEXT) },
    ]);
    expect(occurrences(received[0]?.body ?? Buffer.alloc(0), "[Task Context]")).toBe(1);
  });

  it("keeps the provider's error message from an HTTP error response", async () => {
    const { tools: media, workspace } = tools();
    overrides.set("/v1/images/generations", (response) =>
      json(response, 400, {
        error: { message: "Invalid size: 7x7 is not supported.", type: "invalid_request_error" },
      }),
    );
    const result = await call(media.generate_image, { prompt: "A logo.", size: "7x7" });
    expect(result).toEqual({
      success: false,
      code: "PROVIDER_ERROR",
      error:
        "generate_image: the model provider failed (HTTP 400): Invalid size: 7x7 is not supported.",
    });
    await expect(workspace.readFile("generated")).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
  });

  it("fails on an HTML page the speech endpoint sends with status 200, and writes nothing", async () => {
    const { tools: media, workspace } = tools();
    overrides.set("/v1/audio/speech", (response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end("<!DOCTYPE html><html><body><h1>Maintenance</h1></body></html>");
    });
    const result = await call(media.generate_audio, { text: "Welcome to Lumen." });
    expect(result).toEqual({
      success: false,
      code: "PROVIDER_ERROR",
      error:
        "generate_audio: the model provider failed: the model returned an HTML page (text/html) instead of audio; nothing was written. Try again, or check the model and its provider options.",
    });
    await expect(workspace.readFile("generated")).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
  });

  for (const [what, data] of [
    ["an empty file", ""],
    ["JSON (application/json)", Buffer.from('{"status":"queued"}').toString("base64")],
  ] as const) {
    it(`fails on ${what} inside the image endpoint's b64_json, and writes nothing`, async () => {
      const { tools: media, workspace } = tools();
      overrides.set("/v1/images/generations", (response) =>
        json(response, 200, { created: 1_700_000_000, data: [{ b64_json: data }] }),
      );
      const result = await call(media.generate_image, { prompt: "A logo." });
      expect(result).toEqual({
        success: false,
        code: "PROVIDER_ERROR",
        error: `generate_image: the model provider failed: the model returned ${what} instead of an image; nothing was written. Try again, or check the model and its provider options.`,
      });
      await expect(workspace.readFile("generated")).rejects.toMatchObject({
        code: "FILE_NOT_FOUND",
      });
    });
  }

  it("aborts the HTTP request at the timeout", async () => {
    const timeoutMs = 1_234;
    const { tools: media } = tools({ "a.mp3": MP3 }, timeoutMs);
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let closed!: () => void;
    const requestClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    overrides.set("/v1/audio/transcriptions", (response) => {
      arrived();
      response.on("close", closed);
    });
    // The tool's deadline fires once the request has reached the server too, however long a busy
    // machine takes to send it: what is tested is that the timeout aborts the request in flight.
    const { setTimeout } = globalThis;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((
      callback: (...values: unknown[]) => void,
      delay?: number,
      ...values: unknown[]
    ) =>
      setTimeout(
        delay === timeoutMs ? () => void requestArrived.then(() => callback()) : callback,
        delay,
        ...values,
      )) as typeof globalThis.setTimeout);
    try {
      const result = await call(media.understand_audio, { path: "a.mp3", prompt: "Transcribe." });
      expect(result).toMatchObject({ success: false, code: "TIMEOUT" });
      await requestClosed;
    } finally {
      vi.restoreAllMocks();
    }
  });
});
