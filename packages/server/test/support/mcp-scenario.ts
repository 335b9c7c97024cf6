/**
 * The issue-34 agent scenario: a scripted agent session through the official MCP SDK client with
 * an API key, triage → debug → release. `test/mcp/scenario.test.ts` runs it and checks the
 * outcome; `scripts/mcp-scenario.ts` runs it and writes the transcript to docs/mcp-scenario.md.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ALL_KEY_SCOPES, createApiKey } from '../../src/resources/projects/index.ts';
import { createFollower } from './followers.ts';
import { managedProject, type ManagedProject } from './manage-fixtures.ts';
import { callTool, connectMcp, startMcpTestServer, textOf } from './mcp.ts';
import type { TestServer } from './server.ts';

export interface Step {
  phase: string;
  why: string;
  tool: string;
  args: Record<string, unknown>;
  summary: string;
  isError: boolean;
  data: any;
}

export interface ScenarioRun {
  server: TestServer;
  project: ManagedProject;
  steps: Step[];
  tools: { count: number; characters: number; tokens: number };
  ideaId: string;
  groupId: string;
  followerId: string;
}

/** Seeds a project as a shop's team would find it: three ideas with votes, two errors, logs. */
async function seed(p: ManagedProject) {
  const ideas: string[] = [];
  for (const [title, voters] of [
    ['Dark mode for the dashboard', ['ann']],
    ['Pay with a saved card', ['ann', 'bob', 'cy']],
    ['Keyboard shortcuts', ['bob', 'cy']],
  ] as const) {
    const created = await p.live.post('/features', { title, description: `Please add: ${title.toLowerCase()}.` });
    if (created.status !== 201) throw new Error(`seed idea: ${created.status} ${created.text}`);
    ideas.push(created.body.id);
    for (const voter of voters) await p.live.put(`/features/${created.body.id}/votes/${voter}`);
  }
  for (const [title, version, order] of [
    ['TypeError in cart', '1.1.0', 'o-16'],
    ['RangeError in checkout', '1.2.0', 'o-17'],
  ] as const) {
    const sent = await p.live.post('/errors', {
      title,
      message: `${title}: amount out of range for order ${order}`,
      errorType: title.split(' ')[0],
      stackTrace: `${title.split(' ')[0]}: amount out of range\n    at total (checkout.js:42:7)\n    at pay (checkout.js:88:3)`,
      app: { version, environment: 'production', userId: 'bob' },
    });
    if (sent.status !== 201) throw new Error(`seed error: ${sent.status} ${sent.text}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  await p.live.post('/logs', {
    logs: [
      { level: 'info', message: 'cart loaded', category: 'cart', data: { order: 'o-17' } },
      { level: 'warn', message: 'card token expired, retrying', category: 'checkout', data: { order: 'o-17' } },
      {
        level: 'error',
        message: 'checkout failed: amount out of range',
        category: 'checkout',
        data: { order: 'o-17' },
      },
      { level: 'info', message: 'cart loaded', category: 'cart', data: { order: 'o-18' } },
    ],
  });
  return ideas;
}

export async function runScenario(): Promise<ScenarioRun> {
  const server = await startMcpTestServer();
  const p = await managedProject(server);
  await seed(p);
  const key = await createApiKey(server.db, p.projectId, 'live', [...ALL_KEY_SCOPES]);
  const { client, close } = await connectMcp(server.origin, { key: key.key });
  const steps: Step[] = [];
  let phase = '';
  const call = async (why: string, tool: string, args: Record<string, unknown>) => {
    const result = await callTool(client as Client, tool, { projectId: p.projectId, ...args });
    const text = textOf(result);
    const step: Step = {
      phase,
      why,
      tool,
      args,
      summary: text.split('\n')[0]!,
      isError: result.isError === true,
      data: result.structuredContent,
    };
    steps.push(step);
    if (step.isError) throw new Error(`${tool} ${String(args['action'])}: ${text}`);
    return step.data as any;
  };
  try {
    const { tools } = await client.listTools();
    const characters = JSON.stringify(tools).length;

    phase = 'Triage';
    const top = await call('The most-voted open idea', 'feedback', {
      action: 'search',
      status: 'open',
      sort: 'votes',
      limit: 1,
    });
    const ideaId = top.items[0].id as string;
    const follower = await createFollower(server.db, p.projectId, [ideaId]);
    await call('Who asked for it', 'feedback', { action: 'person', featureId: ideaId });
    await call('Reply on the board', 'feedback', {
      action: 'comment',
      featureId: ideaId,
      body: 'Thanks! We are building this now.',
    });
    await call('A note for the team only', 'feedback', {
      action: 'note',
      featureId: ideaId,
      body: 'Needs the card vault; checkout errors in 1.2.0 may be related.',
    });
    await call('Plan it, with a public response (followers are e-mailed)', 'feedback', {
      action: 'set_status',
      featureId: ideaId,
      status: 'planned',
      response: 'Planned for the next release.',
    });

    phase = 'Debug';
    const errors = await call('The newest error group', 'errors', { action: 'search', limit: 2 });
    const newest = errors.items[0];
    await call('Its latest event in full: the stack', 'errors', { action: 'event', errorId: newest.id });
    const lines = await call('Log lines of the failing order', 'logs', {
      action: 'lines',
      fields: 'data.order = o-17',
    });
    const failed = lines.items.find((line: any) => line.level === 'error');
    await call('Everything logged around the failure', 'logs', { action: 'around', lineId: failed.id, seconds: 30 });
    await call('Link the error group to the idea', 'feedback', {
      action: 'link',
      featureId: ideaId,
      errorId: newest.id,
    });
    await call('Turn the new checkout off for test keys', 'site_config', {
      action: 'set_flag',
      flagKey: 'new-checkout',
      environment: 'test',
      value: false,
    });
    await call("The flag's history", 'site_config', { action: 'flag_history', flagKey: 'new-checkout' });

    phase = 'Release';
    await call('Resolve the idea in the next release', 'releases', {
      action: 'resolve',
      featureId: ideaId,
      version: '1.3.0',
    });
    await call('Resolve the error group as of the next release', 'errors', {
      action: 'resolve',
      errorId: newest.id,
      inNextRelease: true,
    });
    await call('Ship 1.3.0: the idea moves to done, a changelog draft lists it', 'releases', {
      action: 'create',
      version: '1.3.0',
    });
    await call('What broke in 1.2.0', 'releases', { action: 'overview', version: '1.2.0' });
    await call('What shipped in 1.3.0', 'releases', { action: 'overview', version: '1.3.0' });
    await call('The changelog draft', 'changelog', { action: 'list', limit: 1 });
    await call('The session in the audit log (MCP calls are via mcp)', 'audit', { action: 'list', limit: 5 });
    await call('Tell the Signpost team about a gap the agent hit', 'send_feedback', {
      issueType: 'unsupported_action',
      tool: 'releases',
      errorCode: 'no_publish_from_resolve',
      summary: 'Wanted to publish the changelog draft in the same call that created the release.',
      clientName: 'scenario-agent',
      clientVersion: '1.0.0',
    });
    return {
      server,
      project: p,
      steps,
      tools: { count: tools.length, characters, tokens: Math.ceil(characters / 4) },
      ideaId,
      groupId: newest.id as string,
      followerId: follower.id,
    };
  } finally {
    await close();
  }
}

/** A value cut for reading: long strings shortened, arrays to their first items, depth bounded. */
function trim(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > 120 ? `${value.slice(0, 117)}…` : value;
  if (Array.isArray(value)) {
    if (depth >= 9) return `[${value.length} items]`;
    const shown = value.slice(0, 2).map((inner) => trim(inner, depth + 1));
    return value.length > 2 ? [...shown, `… ${value.length - 2} more`] : shown;
  }
  if (value && typeof value === 'object') {
    if (depth >= 9) return '{…}';
    const entries = Object.entries(value).filter(([, inner]) => inner !== null && inner !== undefined);
    const shown = entries.slice(0, 12).map(([key, inner]) => [key, trim(inner, depth + 1)]);
    if (entries.length > 12) shown.push(['…', `${entries.length - 12} more fields`]);
    return Object.fromEntries(shown);
  }
  return value;
}

/** The transcript as Markdown: each call with its arguments, the answer's sentence and trimmed data. */
export function transcript(run: ScenarioRun): string {
  const out = [
    '# An agent session through the hosted MCP server',
    '',
    '<!-- Generated by `SIGNPOST_TEST_DB=sqlite node scripts/mcp-scenario.ts` in packages/server; do not edit. -->',
    '',
    'A scripted agent (the official MCP TypeScript SDK client over Streamable HTTP, with an API key',
    "holding every scope) does a team member's triage, debugging and release work on a seeded project:",
    'three ideas with votes, two error groups (1.1.0, 1.2.0) and log lines of a failing order.',
    '`test/mcp/scenario.test.ts` runs the same session and checks its outcome. Answers are trimmed',
    '(long strings, arrays after two items, depth); ids differ from run to run.',
    '',
    `\`tools/list\`: ${run.tools.count} tools, ${run.tools.characters.toLocaleString('en')} characters, about ${run.tools.tokens.toLocaleString('en')} tokens (characters / 4).`,
  ];
  let phase = '';
  run.steps.forEach((step, index) => {
    if (step.phase !== phase) {
      phase = step.phase;
      out.push('', `## ${phase}`);
    }
    const { projectId: _project, ...args } = step.args;
    out.push(
      '',
      `### ${index + 1}. ${step.why}`,
      '',
      '```json',
      JSON.stringify({ tool: step.tool, arguments: args }),
      '```',
      '',
      `> ${step.summary}`,
      '',
      '```json',
      JSON.stringify(trim(step.data), null, 2),
      '```',
    );
  });
  out.push('');
  return out.join('\n');
}
