/**
 * Loaded into the server by `npm run loop-delay` (`node --import`): samples the event loop's
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution, reported beyond it) and, on SIGUSR2, writes what it
 * saw since the last SIGUSR2 to LOOP_DELAY_OUT as one JSON line, then starts over.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env['LOOP_DELAY_OUT'];
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
// The histogram records the whole interval between its timer's runs, the resolution included (an
// idle loop reads 10–11 ms): the delay is what lies beyond the resolution.
const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
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
