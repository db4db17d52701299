/**
 * The CONTEXT.md template: what we are building, key terminology, visual/brand
 * guidelines (if relevant) and any other details tools and subagents need. Lines in angle brackets
 * are placeholders; `lintContextMd` reports any left in.
 */
export const CONTEXT_MD_TEMPLATE = `# Task context

## What we are building
<One or two sentences: the product or outcome, and what this run is doing for it.>

## Key terminology
- **<Term>**: <what it means in this task, and what it must not be mistaken for>

## Visual and brand guidelines
<Colours, typefaces, logo rules, tone of voice. Write "None" when nothing visual is involved.>

## Other details
<Audience, constraints, file conventions: anything a tool or subagent needs to do its part.>
`;

/** The sections a CONTEXT.md should have, with the headings the linter accepts for each. */
export const CONTEXT_MD_SECTIONS = [
  {
    id: "what-we-are-building",
    title: "What we are building",
    required: true,
    headings:
      /^(what (we are|we're|we’re) (building|doing)|what we build|building|goal|overview|about)\b/i,
  },
  {
    id: "key-terminology",
    title: "Key terminology",
    required: true,
    headings: /^(key )?(terminology|terms|glossary|vocabulary)\b/i,
  },
  {
    id: "visual-brand-guidelines",
    title: "Visual and brand guidelines",
    required: false,
    headings: /^(visual|brand|style|design)\b/i,
  },
  {
    id: "other-details",
    title: "Other details",
    required: false,
    headings: /^(other details|details|notes|other|constraints)\b/i,
  },
] as const;
