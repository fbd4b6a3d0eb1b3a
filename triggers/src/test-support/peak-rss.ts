/** Test support: how far the resident set grows while `work` runs. */

const MB = 1024 * 1024;

/**
 * Runs `work`, sampling `process.memoryUsage().rss` every 5 ms, and returns
 * its result with the peak growth over the RSS before it started, in MB.
 */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number }> {
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  const sampler = setInterval(sample, 5);
  try {
    const result = await work();
    sample();
    return { result, growthMb: (peak - idle) / MB };
  } finally {
    clearInterval(sampler);
  }
}
