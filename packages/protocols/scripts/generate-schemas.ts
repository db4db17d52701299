// Writes the published JSON Schemas (schemas/*.schema.json) from the zod schemas in src/schemas/.
// Run from the package root: node scripts/generate-schemas.ts
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedFiles } from "../../../scripts/generated-files.ts";
import { generatedFiles, schemasDirectory } from "./schema-generation.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// A schema removed from the registry must not stay published.
await writeGeneratedFiles(root, schemasDirectory, generatedFiles(), (entry) =>
  entry.endsWith(".schema.json"),
);
