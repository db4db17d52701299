// Writes the server's generated registries: src/operations.ts from the files of src/operations/,
// src/sql/reads.ts from those of src/sql/reads/. Run from the package root: pnpm run generate
import { writeRegistries } from "../../../scripts/operation-registry.ts";
import { readsFile, registryFile } from "./registry-generation.ts";

await writeRegistries(import.meta.url, [registryFile(), readsFile()]);
