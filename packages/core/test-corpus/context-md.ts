// A CONTEXT.md with the four sections the system prompt teaches, under their headings: what the
// views tests select from. Used by src/views/*.test.ts.

/** The sections, in order, each with one line; ends with a line feed, as an editor saves it. */
export const SECTIONED_CONTEXT_MD = `# Task context

## What we are building
Lumen, a note-taking app.

## Key terminology
- **Vault**: a user's notes.

## Visual and brand guidelines
Deep teal, never pure black.

## Other details
Run \`pnpm test\` before committing.
`;
