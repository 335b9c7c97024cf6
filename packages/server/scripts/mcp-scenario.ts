/**
 * Writes docs/mcp-scenario.md: the issue-34 agent session (triage → debug → release) through the
 * official MCP SDK client, on a fresh test database (test/support/mcp-scenario.ts).
 *
 *   SIGNPOST_TEST_DB=sqlite node scripts/mcp-scenario.ts
 *
 * test/mcp/scenario.test.ts runs the same session and checks its outcome.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runScenario, transcript } from '../test/support/mcp-scenario.ts';

const run = await runScenario();
try {
  const target = fileURLToPath(new URL('../../../docs/mcp-scenario.md', import.meta.url));
  writeFileSync(target, transcript(run));
  console.log(`${run.steps.length} calls written to ${target}; tools/list ${run.tools.tokens} tokens`);
} finally {
  await run.server.close();
}
