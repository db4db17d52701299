import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.ts";

// The generator's drift test starts the service in process (scripts/service-document.ts).
export default defineConfig({
  ...shared,
  test: { ...shared.test, include: ["src/**/*.test.ts"] },
});
