/** Called once per burst of changes to CONTEXT.md. */
export type ContextChangeListener = () => void;

/**
 * A source of "CONTEXT.md changed" events that many servers share. `watchTaskContext` from
 * `@task-context/mcp/stdio` builds one over a directory on disk; any other source (a test, a
 * store that knows when it writes) can implement the one method.
 */
export interface ContextChanges {
  /**
   * Calls `listener` after each burst of changes until the returned function is called. The
   * returned function is idempotent.
   */
  subscribe(listener: ContextChangeListener): () => void;
}
