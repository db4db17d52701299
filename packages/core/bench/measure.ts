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
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/** Runs the candidate and its baseline in alternating rounds and reports both and their ratio. */
export async function compare(
  name: string,
  candidate: () => unknown,
  baseline: () => unknown,
  iterations: number,
): Promise<{ name: string; candidate: number; baseline: number; ratio: number }> {
  for (let warm = 0; warm < iterations; warm++) {
    await candidate();
    await baseline();
  }
  const candidateTimes: number[] = [];
  const baselineTimes: number[] = [];
  for (let round = 0; round < 7; round++) {
    baselineTimes.push(await medianNanoseconds(baseline, { iterations, rounds: 3 }));
    candidateTimes.push(await medianNanoseconds(candidate, { iterations, rounds: 3 }));
  }
  const median = (values: number[]) =>
    values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const result = {
    name,
    candidate: median(candidateTimes),
    baseline: median(baselineTimes),
    ratio: 0,
  };
  result.ratio = result.candidate / result.baseline;
  return result;
}

export const microseconds = (nanoseconds: number) => `${(nanoseconds / 1_000).toFixed(1)} µs`;
export const milliseconds = (nanoseconds: number) => `${(nanoseconds / 1_000_000).toFixed(2)} ms`;
