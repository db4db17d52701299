import type { TaskContextView } from "../task-context.ts";
import { DELIVERY_ATTRIBUTES } from "./delivery-attributes.ts";

/**
 * The span attributes of a delivered view — its name, its sections and the whole file's hash —
 * for `span.setAttributes` where a context is delivered; none when the context had no view.
 */
export function contextViewAttributes(context: {
  view?: TaskContextView | undefined;
}): Record<string, string | string[]> {
  const { view } = context;
  if (view === undefined) return {};
  return {
    [DELIVERY_ATTRIBUTES.contextViewName]: view.name,
    [DELIVERY_ATTRIBUTES.contextViewSections]: [...view.sections],
    [DELIVERY_ATTRIBUTES.contextFileSha256]: view.fileSha256,
  };
}
