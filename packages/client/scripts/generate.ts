// Writes the client's generated files (src/generated/*.ts) from the delivery service's OpenAPI
// document and error table. Run from the package root: pnpm run generate
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeGeneratedFiles } from "../../../scripts/generated-files.ts";
import { generatedDirectory, generatedFiles } from "./client-generation.ts";
import { errorStatus, serviceDocument } from "./service-document.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await writeGeneratedFiles(
  root,
  generatedDirectory,
  await generatedFiles(await serviceDocument(), errorStatus),
);
