// Stands in the Worker's bundle for the optional modules that hono-openapi's schema adapters
// import only for other schema libraries (valibot, effect, sury, zod 3): importing it fails as
// the missing module would, and the bundle keeps no import that workerd would have to resolve.
// wrangler.jsonc's "alias" maps those modules here.
throw new Error("This module is not part of the delivery service's Worker.");

export {};
