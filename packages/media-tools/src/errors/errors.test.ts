import { TaskContextError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import {
  AbortedError,
  FileTooLargeError,
  MediaToolError,
  ModelNotConfiguredError,
  ProviderError,
  TimeoutError,
  UnsupportedMediaTypeError,
} from "../index.ts";
import { formatBytes } from "./file-too-large-error.ts";

describe("media tool errors", () => {
  it("carry a string code and recognise each other across bundled copies", () => {
    const errors = [
      [
        new UnsupportedMediaTypeError("a.zip", "no", "application/zip"),
        "UNSUPPORTED_MEDIA_TYPE",
        UnsupportedMediaTypeError,
      ],
      [new FileTooLargeError("a.png", "image", 3, 2), "FILE_TOO_LARGE", FileTooLargeError],
      [
        new ModelNotConfiguredError("generate_image", "image"),
        "MODEL_NOT_CONFIGURED",
        ModelNotConfiguredError,
      ],
      [
        new ProviderError("generate_image", "boom", 500, undefined),
        "PROVIDER_ERROR",
        ProviderError,
      ],
      [new TimeoutError("generate_image", 10), "TIMEOUT", TimeoutError],
      [new AbortedError("generate_image", undefined), "ABORTED", AbortedError],
    ] as const;
    for (const [error, code, type] of errors) {
      expect(error).toBeInstanceOf(TaskContextError);
      expect(error.code).toBe(code);
      expect(MediaToolError.isInstance(error)).toBe(true);
      expect(type.isInstance(error)).toBe(true);
      const foreign = Object.assign(Object.create(Error.prototype), error);
      Object.defineProperty(foreign, Symbol.for("task-context.error"), { value: true });
      expect(type.isInstance(foreign)).toBe(true);
    }
    expect(MediaToolError.isInstance(new TaskContextError("FILE_NOT_FOUND", "x"))).toBe(false);
    expect(TimeoutError.isInstance(new AbortedError("x", undefined))).toBe(false);
  });

  it("say what happened and what to do", () => {
    expect(new AbortedError("generate_video", undefined).message).toBe(
      "generate_video was aborted by the caller; nothing was written.",
    );
    expect(
      new ProviderError("understand_image", "Rate limit reached", 429, undefined).message,
    ).toBe("understand_image: the model provider failed (HTTP 429): Rate limit reached");
  });

  it("format sizes as people read them", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(1000)).toBe("1000 bytes");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MiB");
  });
});
