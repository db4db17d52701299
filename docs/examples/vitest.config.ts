import { defineConfig, mergeConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

/** The docs' tests sit in test/, beside the examples they run. */
export default mergeConfig(shared, defineConfig({ test: { include: ["test/**/*.test.ts"] } }));
