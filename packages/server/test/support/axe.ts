/**
 * axe-core in a Playwright page, shared by the board's and the dashboard's browser tests. The
 * source is evaluated through the DevTools protocol: the pages' CSP refuses injected script tags.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Fails on any serious or critical violation, naming the rule and the elements. With AXE_REPORT
 * set to a file, every check also appends a JSON line there (the label and every violation,
 * minor and moderate included): the figures behind "axe-clean" in the notes.
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run();
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target),
    }));
  });
  const report = process.env['AXE_REPORT'];
  if (report) appendFileSync(report, `${JSON.stringify({ label, violations: found })}\n`);
  const violations = found
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${JSON.stringify(violation.targets)}`);
  assert.deepEqual(violations, [], `axe on ${label}`);
}
