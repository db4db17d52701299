import type { Workspace } from "@task-context/core";
import {
  DETECTION_BYTES,
  type DetectedMediaType,
  describeUnsupportedContent,
  detectMediaType,
  isUtf8Text,
  type MediaKind,
} from "./detect-media-type.ts";
import { FileTooLargeError } from "./errors/file-too-large-error.ts";
import { UnsupportedMediaTypeError } from "./errors/unsupported-media-type-error.ts";

/** A workspace file whose kind is known from its first bytes, not yet read in full. */
export interface ProbedMedia extends DetectedMediaType {
  path: string;
  size: number;
  /** The whole file when it fit in the probe's read, so it need not be read again. */
  whole: Uint8Array | undefined;
}

/** A media file read in full, bounded by its kind's limit. */
export interface MediaFile extends DetectedMediaType {
  path: string;
  size: number;
  bytes: Uint8Array;
}

const SUPPORTED =
  "images (PNG, JPEG, GIF, WebP, HEIC, AVIF, BMP, TIFF), audio (MP3, WAV, FLAC, OGG, M4A, AAC, AIFF), video (MP4, MOV, WebM, MKV, AVI, MPEG), PDF and UTF-8 text";

const KIND_NAMES: Record<MediaKind, string> = {
  image: "an image",
  audio: "audio",
  video: "a video",
  file: "a document (PDF or text)",
};

function refuse(
  path: string,
  tool: string,
  accepted: readonly MediaKind[],
  found: DetectedMediaType | undefined,
  bytes: Uint8Array,
): UnsupportedMediaTypeError {
  if (found === undefined) {
    const what = describeUnsupportedContent(bytes);
    return new UnsupportedMediaTypeError({
      path,
      message: `${JSON.stringify(path)} is ${what}, which ${tool} cannot read. Supported: ${SUPPORTED}. The type is detected from the file's content, not its name.`,
      detected: what.match(/\(([^)]+)\)/)?.[1],
    });
  }
  const wanted = accepted.map((kind) => KIND_NAMES[kind]).join(" or ");
  const suggestion = found.kind === "file" ? "understand_file" : `understand_${found.kind}`;
  return new UnsupportedMediaTypeError({
    path,
    message: `${JSON.stringify(path)} is ${found.mediaType} (detected from its content), not ${wanted}. Use ${suggestion} or read_media, which picks the tool from the content.`,
    detected: found.mediaType,
  });
}

/**
 * Reads the first bytes of a workspace file and detects its kind. Throws core's path errors
 * (`INVALID_WORKSPACE_PATH`, `FILE_NOT_FOUND`, …) and `UNSUPPORTED_MEDIA_TYPE` when the content is
 * not one of `accepted`.
 */
export async function probeMedia(
  workspace: Workspace,
  path: string,
  tool: string,
  accepted: readonly MediaKind[],
): Promise<ProbedMedia> {
  const head = await workspace.readFile(path, { maxBytes: DETECTION_BYTES });
  const found = detectMediaType(head.bytes, head.bytes.length >= head.size);
  if (found === undefined || !accepted.includes(found.kind))
    throw refuse(path, tool, accepted, found, head.bytes);
  const whole = head.bytes.length >= head.size ? head.bytes : undefined;
  return { path, size: head.size, whole, ...found };
}

/**
 * Reads a probed file in full, at most `limit` bytes, and checks its content again (it may have
 * changed since the probe). Throws `FILE_TOO_LARGE` without reading past the limit.
 */
export async function readMedia(
  workspace: Workspace,
  probed: ProbedMedia,
  tool: string,
  accepted: readonly MediaKind[],
  limit: number,
): Promise<MediaFile> {
  if (probed.size > limit)
    throw new FileTooLargeError({ path: probed.path, kind: probed.kind, size: probed.size, limit });
  const read = await workspace.readFile(probed.path, { maxBytes: limit });
  if (read.size > limit || read.bytes.length < read.size)
    throw new FileTooLargeError({ path: probed.path, kind: probed.kind, size: read.size, limit });
  let found = detectMediaType(read.bytes, true);
  // Detection looks at a prefix; text must be text to its end.
  if (found?.mediaType === "text/plain" && !isUtf8Text(read.bytes, true)) found = undefined;
  if (found === undefined || !accepted.includes(found.kind))
    throw refuse(probed.path, tool, accepted, found, read.bytes);
  return { path: probed.path, size: read.size, bytes: read.bytes, ...found };
}
