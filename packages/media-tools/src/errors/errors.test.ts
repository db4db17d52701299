import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import {
  FileTooLargeError,
  MediaToolAbortedError,
  MediaToolError,
  MediaToolTimeoutError,
  ModelNotConfiguredError,
  ProviderError,
  UnsupportedAiSdkError,
  UnsupportedMediaTypeError,
  UnsupportedRuntimeError,
} from "../index.ts";
import { formatBytes } from "./file-too-large-error.ts";

describe("media tool errors", () => {
  it("carry a string code and recognise each other across bundled copies", () => {
    const errors = [
      [
        new UnsupportedMediaTypeError({
          path: "a.zip",
          message: "no",
          detected: "application/zip",
        }),
        "UNSUPPORTED_MEDIA_TYPE",
        UnsupportedMediaTypeError,
      ],
      [
        new FileTooLargeError({ path: "a.png", kind: "image", size: 3, limit: 2 }),
        "FILE_TOO_LARGE",
        FileTooLargeError,
      ],
      [
        new ModelNotConfiguredError({ tool: "generate_image", model: "image" }),
        "MODEL_NOT_CONFIGURED",
        ModelNotConfiguredError,
      ],
      [
        new ProviderError({ tool: "generate_image", providerMessage: "boom", statusCode: 500 }),
        "PROVIDER_ERROR",
        ProviderError,
      ],
      [
        new MediaToolTimeoutError({ tool: "generate_image", timeoutMs: 10 }),
        "TIMEOUT",
        MediaToolTimeoutError,
      ],
      [
        new MediaToolAbortedError({ tool: "generate_image", reason: undefined }),
        "ABORTED",
        MediaToolAbortedError,
      ],
      [
        new UnsupportedRuntimeError({ nodeVersion: "20.20.2" }),
        "UNSUPPORTED_RUNTIME",
        UnsupportedRuntimeError,
      ],
      [
        new UnsupportedAiSdkError({ aiVersion: "6.0.326" }),
        "UNSUPPORTED_AI_SDK",
        UnsupportedAiSdkError,
      ],
    ] as const;
    for (const [error, code, type] of errors) {
      expect(error).toBeInstanceOf(TaskContextError);
      expect(error.code).toBe(code);
      expect(MediaToolError.isInstance(error)).toBe(true);
      expect(type.isInstance(error)).toBe(true);
      // A copy from another bundle: another class, the same markers.
      const foreign = {
        [Symbol.for("task-context.error")]: true,
        [Symbol.for("task-context.error.MediaToolError")]: true,
        [Symbol.for(`task-context.error.${type.name}`)]: true,
      };
      expect(type.isInstance(foreign)).toBe(true);
    }
    expect(
      MediaToolError.isInstance(new TaskContextError({ code: "FILE_NOT_FOUND", message: "x" })),
    ).toBe(false);
    expect(
      MediaToolTimeoutError.isInstance(new MediaToolAbortedError({ tool: "x", reason: undefined })),
    ).toBe(false);
  });

  it("say what happened and what to do", () => {
    expect(new MediaToolAbortedError({ tool: "generate_video", reason: undefined }).message).toBe(
      "generate_video was aborted by the caller; nothing was written.",
    );
    expect(
      new ProviderError({
        tool: "understand_image",
        providerMessage: "Rate limit reached",
        statusCode: 429,
      }).message,
    ).toBe("understand_image: the model provider failed (HTTP 429): Rate limit reached");
  });

  it("format sizes as people read them", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1000)).toBe("1000 bytes");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MiB");
  });
});
