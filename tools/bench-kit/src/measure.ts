// Timing helpers for the packages' benchmarks (bench/*.bench.ts). Benchmarks are not tests: they
// print figures that go into docs/benchmarks.md, always beside a baseline measured in the same run.

/** The median of `values` (the upper middle one for an even count). */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
}

/** Median nanoseconds per call of `fn`, over `rounds` rounds of `iterations` calls. */
export async function medianNanoseconds(
  fn: () => unknown,
  { iterations, rounds = 15 }: { iterations: number; rounds?: number },
): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let index = 0; index < iterations; index++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / iterations);
  }
  return median(samples);
}

/**
 * Measures every contestant in alternating rounds — so drift, garbage collection and a busy
 * neighbour hit them alike — after a warm-up, and returns each one's median nanoseconds per call.
 */
export async function compareAlternating<Name extends string>(
  contestants: Record<Name, () => unknown>,
  { iterations, rounds = 7 }: { iterations: number; rounds?: number },
): Promise<Record<Name, number>> {
  const names = Object.keys(contestants) as Name[];
  for (let warm = 0; warm < iterations; warm++) for (const name of names) await contestants[name]();
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<
    Name,
    number[]
  >;
  for (let round = 0; round < rounds; round++) {
    for (const name of names) {
      samples[name].push(await medianNanoseconds(contestants[name], { iterations, rounds: 3 }));
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name])])) as Record<
    Name,
    number
  >;
}

/** `12.3 µs` */
export const microseconds = (nanoseconds: number) => `${(nanoseconds / 1_000).toFixed(1)} µs`;
/** `1.23 ms` */
export const milliseconds = (nanoseconds: number) => `${(nanoseconds / 1_000_000).toFixed(2)} ms`;
