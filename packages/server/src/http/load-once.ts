/**
 * `load` run at the first call, its promise kept for every later one; a load that fails fails
 * that call, and the next call tries again. For what a route loads on its first request (an SDK
 * a Worker's isolate should not evaluate at startup).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
