import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { INSTALL_AI_SDK, SUPPORTED_AI_MAJOR } from "./errors/unsupported-ai-sdk-error.ts";
import * as onNode from "./index.node.ts";
import * as tools from "./index.ts";
import { installedAiVersion, requireSupportedAiSdk } from "./require-supported-ai-sdk.ts";
import { requireSupportedNode } from "./require-supported-node.ts";

const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));

/** What `fn` threw. */
function thrownBy(fn: () => void): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("the Node entry point", () => {
  it("exports every value the package exports, the same objects", () => {
    expect(Object.entries(onNode).sort()).toEqual(Object.entries(tools).sort());
  });

  it("refuses AI SDK 6 as it is imported (the built entry, in a project whose ai is 6.x), naming `npm install ai@7`", () => {
    // A project as Node 20 left it: npm installed ai 6 there. Only its package.json is read
    // before the refusal; the package's dist/ is copied in, so that `ai` resolves in the project.
    const project = mkdtempSync(join(tmpdir(), "task-context-media-tools-ai6-"));
    try {
      const ai = join(project, "node_modules", "ai");
      mkdirSync(ai, { recursive: true });
      writeFileSync(
        join(ai, "package.json"),
        JSON.stringify({
          name: "ai",
          version: "6.0.326",
          type: "module",
          exports: { ".": "./index.js", "./package.json": "./package.json" },
        }),
      );
      writeFileSync(join(ai, "index.js"), "export const generateText = () => {};\n");
      const tools = join(project, "node_modules", "@task-context", "media-tools");
      mkdirSync(tools, { recursive: true });
      cpSync(join(packageDirectory, "package.json"), join(tools, "package.json"));
      cpSync(join(packageDirectory, "dist"), join(tools, "dist"), { recursive: true });
      symlinkSync(
        join(packageDirectory, "..", "core"),
        join(project, "node_modules", "@task-context", "core"),
      );
      const probe = `try { await import("@task-context/media-tools"); console.log("imported"); }
        catch (error) { console.log(JSON.stringify({ name: error.name, code: error.code, aiVersion: error.aiVersion, message: error.message })); }`;
      const result = spawnSync(process.execPath, ["--input-type=module", "-e", probe], {
        cwd: project,
        encoding: "utf8",
      });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        name: "UnsupportedAiSdkError",
        code: "UNSUPPORTED_AI_SDK",
        aiVersion: "6.0.326",
        message:
          '@task-context/media-tools builds on AI SDK 7 (the package "ai"), and ai 6.0.326 is installed. Run `npm install ai@7`: it installs AI SDK 7 and writes its range into package.json (a plain reinstall keeps the range npm wrote before, or fails with ERESOLVE).',
      });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});

describe("requireSupportedNode", () => {
  it("refuses Node 20 with UNSUPPORTED_RUNTIME and a message that names the requirement and the command that fixes the install", () => {
    const thrown = thrownBy(() => requireSupportedNode("20.20.2"));
    expect(tools.UnsupportedRuntimeError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "UNSUPPORTED_RUNTIME",
      nodeVersion: "20.20.2",
      message:
        '@task-context/media-tools needs Node 22 or later (the AI SDK 7 it builds on needs it), and this is Node 20.20.2. Run on Node 22 or later, then `npm install ai@7`: on Node 20 npm installs AI SDK 6, which lacks functions the tools use, and writes "ai": "^6…" into package.json, which a plain reinstall keeps (or fails on with ERESOLVE).',
    });
  });

  it("accepts Node 22 and later, and runtimes that report no Node version", () => {
    for (const version of ["22.0.0", "24.21.0", "26.3.0", undefined]) {
      expect(() => requireSupportedNode(version), String(version)).not.toThrow();
    }
  });
});

describe("requireSupportedAiSdk", () => {
  it("refuses another major of ai with UNSUPPORTED_AI_SDK, naming the command from the peer range", () => {
    for (const version of ["6.0.326", "8.0.0-beta.1", "5.0.0"]) {
      const thrown = thrownBy(() => requireSupportedAiSdk(version));
      expect(tools.UnsupportedAiSdkError.isInstance(thrown), version).toBe(true);
      expect(thrown).toMatchObject({ code: "UNSUPPORTED_AI_SDK", aiVersion: version });
      expect((thrown as Error).message).toContain("Run `npm install ai@7`");
    }
  });

  it("accepts ai 7, and an ai it cannot resolve (the import of ai then names it)", () => {
    for (const version of ["7.0.0", "7.0.173", "7.3.0-canary.2", undefined]) {
      expect(() => requireSupportedAiSdk(version), String(version)).not.toThrow();
    }
  });

  it("reads the installed ai's version, and the supported major is the peer range's", () => {
    const manifest = JSON.parse(readFileSync(join(packageDirectory, "package.json"), "utf8")) as {
      peerDependencies: { ai: string };
      devDependencies: { ai: string };
    };
    expect(manifest.peerDependencies.ai).toBe(`^${SUPPORTED_AI_MAJOR}.0.0`);
    expect(INSTALL_AI_SDK).toBe(`npm install ai@${SUPPORTED_AI_MAJOR}`);
    expect(installedAiVersion()).toBe(manifest.devDependencies.ai);
  });
});
