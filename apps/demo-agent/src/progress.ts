// One line per step as it starts and as it ends, with its time; details indented beneath.
// Colour only on a terminal, never with NO_COLOR; piped output is plain text.

/** Where progress goes. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Prints the demo's progress. */
export interface Progress {
  /** `[n/5] title …` */
  start(step: number, title: string): void;
  /** Indented lines under the current step (blank lines stay empty). */
  detail(text: string): void;
  /** `[n/5] done in N ms: summary` */
  done(step: number, summary: string): void;
  /** A line of its own, not indented. */
  line(text: string): void;
}

/** The number of steps the demo shows. */
export const STEP_COUNT = 5;

/** Whether to colour: a terminal, and NO_COLOR unset or empty (https://no-color.org). */
export function useColour(stream: ProgressStream, environment: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (environment.NO_COLOR ?? "") === "";
}

/** A progress printer on `stream`; `now` gives milliseconds (for the step timings). */
export function createProgress(
  stream: ProgressStream,
  environment: NodeJS.ProcessEnv,
  now: () => number = () => performance.now(),
): Progress {
  const colour = useColour(stream, environment);
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
  const started = new Map<number, number>();
  return {
    start(step, title) {
      started.set(step, now());
      stream.write(`${paint("1;36", `[${step}/${STEP_COUNT}]`)} ${paint("1", title)}\n`);
    },
    detail(text) {
      const lines = text
        .split("\n")
        .map((line) => (line.trim() === "" ? "" : `      ${line.trimEnd()}`));
      stream.write(`${lines.join("\n")}\n`);
    },
    done(step, summary) {
      const elapsed = Math.round(now() - (started.get(step) ?? now()));
      stream.write(
        `${paint("1;32", `[${step}/${STEP_COUNT}] done`)} in ${elapsed} ms: ${summary}\n`,
      );
    },
    line(text) {
      stream.write(`${text}\n`);
    },
  };
}
