/** A JSON Pointer (RFC 6901) for a path of keys and indexes: `""` for the root, `/project/path`. */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  let pointer = "";
  for (const segment of path) {
    pointer += `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`;
  }
  return pointer;
}
