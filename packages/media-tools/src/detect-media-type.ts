/** The four kinds of input the understand tools take. */
export type MediaKind = "image" | "audio" | "video" | "file";

/** What {@link detectMediaType} found: a kind, an IANA media type and a file extension. */
export interface DetectedMediaType {
  kind: MediaKind;
  mediaType: string;
  extension: string;
}

/** How many leading bytes {@link detectMediaType} looks at. */
export const DETECTION_BYTES = 4096;

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length &&
  signature.every((byte, index) => bytes[offset + index] === byte);

const detected = (kind: MediaKind, mediaType: string, extension: string): DetectedMediaType => ({
  kind,
  mediaType,
  extension,
});

/** ISO base media (MP4, MOV, M4A, HEIC, AVIF, 3GP): the `ftyp` box names a major brand. */
function isoBaseMedia(bytes: Uint8Array): DetectedMediaType | undefined {
  if (ascii(bytes, 4, 8) !== "ftyp") return undefined;
  const brand = ascii(bytes, 8, 12);
  if (["avif", "avis"].includes(brand)) return detected("image", "image/avif", "avif");
  if (["heic", "heix", "heim", "heis"].includes(brand))
    return detected("image", "image/heic", "heic");
  if (["mif1", "msf1", "hevc", "hevx"].includes(brand))
    return detected("image", "image/heif", "heif");
  if (["M4A ", "M4B ", "M4P ", "F4A ", "F4B "].includes(brand))
    return detected("audio", "audio/mp4", "m4a");
  if (brand === "qt  ") return detected("video", "video/quicktime", "mov");
  if (brand.startsWith("3g2")) return detected("video", "video/3gpp2", "3g2");
  if (brand.startsWith("3gp")) return detected("video", "video/3gpp", "3gp");
  return detected("video", "video/mp4", "mp4");
}

/** Matroska and WebM share the EBML header; its DocType element says which. */
function ebml(bytes: Uint8Array): DetectedMediaType | undefined {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return undefined;
  const header = ascii(bytes, 4, 64);
  if (header.includes("webm")) return detected("video", "video/webm", "webm");
  return detected("video", "video/x-matroska", "mkv");
}

function riff(bytes: Uint8Array): DetectedMediaType | undefined {
  if (ascii(bytes, 0, 4) !== "RIFF") return undefined;
  const format = ascii(bytes, 8, 12);
  if (format === "WEBP") return detected("image", "image/webp", "webp");
  if (format === "WAVE") return detected("audio", "audio/wav", "wav");
  if (format === "AVI ") return detected("video", "video/x-msvideo", "avi");
  return undefined;
}

/** An MPEG audio frame header: 11 sync bits, a valid version, layer, bitrate and sample rate. */
function isMpegAudioFrame(bytes: Uint8Array, offset = 0): boolean {
  const [first, second, third] = [bytes[offset], bytes[offset + 1], bytes[offset + 2]];
  if (first !== 0xff || second === undefined || third === undefined) return false;
  if ((second & 0xe0) !== 0xe0) return false;
  const version = (second >> 3) & 0x03;
  const layer = (second >> 1) & 0x03;
  const bitrate = third >> 4;
  const sampleRate = (third >> 2) & 0x03;
  return version !== 0x01 && bitrate !== 0x0f && sampleRate !== 0x03 && layer !== 0x00;
}

/** AAC in ADTS frames: sync word 0xFFF, layer 00. */
function isAdts(bytes: Uint8Array): boolean {
  const [first, second] = [bytes[0], bytes[1]];
  return first === 0xff && second !== undefined && (second & 0xf6) === 0xf0;
}

const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

/**
 * Whether `bytes` is text: valid UTF-8 without control characters other than tab, line breaks,
 * form feed and escape. With `complete: false` a multi-byte sequence cut at the end is allowed.
 */
export function isUtf8Text(bytes: Uint8Array, complete: boolean): boolean {
  if (bytes.length === 0) return false;
  // A cut inside a multi-byte sequence at the end of a prefix is not an error.
  let end = bytes.length;
  if (!complete) {
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && ((bytes[end - back - 1] as number) & 0xc0) === 0x80)
      back++;
    const lead = bytes[end - back - 1];
    if (lead !== undefined && lead >= 0xc0) end = end - back - 1;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, end));
  } catch {
    return false;
  }
  // Control characters other than tab, line feed, form feed, carriage return and escape (ANSI
  // colours in logs) mark binary data.
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code < 0x20 && !ALLOWED_CONTROLS.has(code)) || code === 0x7f) return false;
  }
  return true;
}

/**
 * Detects what a file is from its content — its magic bytes, never its name — so that a PNG
 * saved as `photo.jpg` or a PDF named `notes.txt` still goes to the right tool. Looks at the first
 * {@link DETECTION_BYTES} bytes. `complete` says whether `bytes` is the whole file (it matters
 * only for text, which must be valid UTF-8 up to its end). Returns `undefined` for anything the
 * tools cannot handle (archives, executables, empty files, unknown binary data).
 *
 * Text is any valid UTF-8 without control characters (other than tab, line breaks, form feed
 * and escape); it is reported as `text/plain`, whatever its dialect (Markdown, CSV, JSON, SVG, …).
 * The eight bytes of the PNG signature, for one, give
 * `{ kind: "image", mediaType: "image/png", extension: "png" }`.
 */
export function detectMediaType(input: Uint8Array, complete = true): DetectedMediaType | undefined {
  const bytes = input.subarray(0, DETECTION_BYTES);
  const whole = complete && input.length <= DETECTION_BYTES;
  if (bytes.length === 0) return undefined;

  // Images
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return detected("image", "image/png", "png");
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return detected("image", "image/jpeg", "jpg");
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a")
    return detected("image", "image/gif", "gif");
  if (startsWith(bytes, [0x42, 0x4d]) && bytes.length >= 26 && bytes[14] !== undefined) {
    // "BM" alone is too weak; a BMP's DIB header size is one of a few fixed values.
    const dibHeaderSize = (bytes[14] as number) | ((bytes[15] as number) << 8);
    if ([12, 40, 52, 56, 64, 108, 124].includes(dibHeaderSize))
      return detected("image", "image/bmp", "bmp");
  }
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return detected("image", "image/tiff", "tiff");

  const container = riff(bytes) ?? isoBaseMedia(bytes) ?? ebml(bytes);
  if (container !== undefined) return container;

  // Audio
  if (ascii(bytes, 0, 3) === "ID3" || isMpegAudioFrame(bytes))
    return detected("audio", "audio/mpeg", "mp3");
  if (isAdts(bytes)) return detected("audio", "audio/aac", "aac");
  if (ascii(bytes, 0, 4) === "fLaC") return detected("audio", "audio/flac", "flac");
  if (ascii(bytes, 0, 4) === "OggS") {
    const header = ascii(bytes, 28, 64);
    if (header.includes("theora")) return detected("video", "video/ogg", "ogv");
    if (header.includes("OpusHead")) return detected("audio", "audio/ogg", "opus");
    return detected("audio", "audio/ogg", "ogg");
  }
  if (ascii(bytes, 0, 4) === "FORM" && ["AIFF", "AIFC"].includes(ascii(bytes, 8, 12)))
    return detected("audio", "audio/aiff", "aiff");
  if (ascii(bytes, 0, 6) === "#!AMR\n") return detected("audio", "audio/amr", "amr");

  // Video
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0xba]) || startsWith(bytes, [0x00, 0x00, 0x01, 0xb3]))
    return detected("video", "video/mpeg", "mpg");
  if (ascii(bytes, 0, 3) === "FLV" && bytes[3] === 0x01)
    return detected("video", "video/x-flv", "flv");

  // Documents
  if (ascii(bytes, 0, 5) === "%PDF-") return detected("file", "application/pdf", "pdf");
  if (isUtf8Text(bytes, whole)) return detected("file", "text/plain", "txt");
  return undefined;
}

/**
 * A short label for content {@link detectMediaType} refused, for error messages: a known
 * container format by name, else "unknown binary data".
 */
export function describeUnsupportedContent(bytes: Uint8Array): string {
  if (bytes.length === 0) return "an empty file";
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return "a ZIP archive (application/zip)";
  if (startsWith(bytes, [0x1f, 0x8b])) return "gzip data (application/gzip)";
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return "an ELF executable";
  if (startsWith(bytes, [0x4d, 0x5a])) return "a Windows executable";
  if (ascii(bytes, 0, 4) === "7z\xbc\xaf") return "a 7-Zip archive";
  return "unknown binary data";
}
