// Writes the contract's registry of operations (src/operations.ts) from the files of
// src/operations/. Run from the package root: pnpm run generate
import { writeRegistries } from "../../../scripts/operation-registry.ts";
import { registryFile } from "./registry-generation.ts";

await writeRegistries(import.meta.url, [registryFile()]);
