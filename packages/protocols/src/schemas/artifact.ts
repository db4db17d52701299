import { z } from "zod";

const timestamp = z.iso.datetime({ offset: true });

/** A reference to an artifact of an earlier stage, carried by later work items (spec 003). */
export const artifactReferenceSchema = z
  .strictObject({
    artifact_id: z.string().min(1),
    stage_id: z.string().min(1),
    author_tag: z.string().min(1),
    title: z.string().optional(),
    media_type: z.string().min(1).describe("e.g. text/markdown"),
    uri: z.string().optional().describe("Where to fetch the content, when it is not inline"),
    summary: z.string().optional(),
  })
  .meta({ title: "Artifact reference" });

/** An artifact an agent produced for a work item. */
export const artifactSchema = z
  .strictObject({
    id: z.string().min(1),
    run_id: z.string().min(1),
    stage_id: z.string().min(1),
    work_item_id: z.string().min(1),
    author_tag: z.string().min(1),
    title: z.string().optional(),
    media_type: z.string().min(1),
    content: z.string(),
    created_at: timestamp,
  })
  .meta({ title: "Artifact" });

/** A reference to an artifact. */
export type ArtifactReference = z.infer<typeof artifactReferenceSchema>;
/** An artifact. */
export type Artifact = z.infer<typeof artifactSchema>;
