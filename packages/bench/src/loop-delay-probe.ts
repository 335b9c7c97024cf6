/**
 * Loaded into the server by `npm run loop-delay` (`node --import`): samples the event loop's
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and, on SIGUSR2, writes what it
 * saw since the last SIGUSR2 to LOOP_DELAY_OUT as one JSON line, then starts over.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env['LOOP_DELAY_OUT'];
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const ms = (ns: number) => Math.round(ns / 1e4) / 100;
process.on('SIGUSR2', () => {
  if (out) {
    const line = {
      samples: histogram.count,
      p50Ms: ms(histogram.percentile(50)),
      p99Ms: ms(histogram.percentile(99)),
      maxMs: ms(histogram.max),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  }
  histogram.reset();
});
