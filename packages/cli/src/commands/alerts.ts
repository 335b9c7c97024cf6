/**
 * `signpost alerts …`: a project's error alert rules (new group, regression, or a spike of N events
 * in M minutes; SDK environment and level filters; team members to e-mail; webhooks or not).
 * `update` reads the rule, applies the options given and replaces it (the API's PUT), so an option
 * left out keeps its value; `--mute [1h|24h|7d|forever]` mutes a rule for a time (its `mutedUntil`:
 * it fires again by itself after) or until unmuted (bare `--mute`), `--unmute` unmutes it.
 */
import { type Command, InvalidArgumentError } from 'commander';
import {
  type CommonFlags,
  integer,
  list,
  oneOf,
  onOff,
  projectContext,
  usageExits,
  withProject,
} from '../manage/common.ts';
import { action, CliError } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';
import type { Answer, Body } from '../manage/api.ts';

type Rule = Answer<'manageGetErrorAlertRule'>;
type RuleBody = Body<'manageCreateErrorAlertRule'>;

const KINDS = ['new_group', 'regression', 'spike'] as const;
const LEVELS = ['fatal', 'error', 'warning', 'info', 'debug'] as const;
const MUTE_FOR = ['1h', '24h', '7d', 'forever'] as const;
type MuteFor = (typeof MUTE_FOR)[number];

interface RuleFlags extends CommonFlags {
  name?: string;
  kind?: RuleBody['kind'];
  environment?: string;
  levels?: string[];
  events?: number;
  minutes?: number;
  quiet?: number;
  recipients?: string[];
  webhooks?: boolean;
  mute?: MuteFor | true;
  unmute?: boolean;
}

function levels(raw: string): string[] {
  if (raw === 'all') return [];
  const chosen = list(raw);
  const unknown = chosen.filter((level) => !(LEVELS as readonly string[]).includes(level));
  if (chosen.length === 0 || unknown.length > 0) {
    throw new InvalidArgumentError(
      `${unknown.length > 0 ? `Unknown level ${unknown.join(', ')}. ` : ''}Use a comma-separated list of: ${LEVELS.join(', ')} (or all).`,
    );
  }
  return [...new Set(chosen)];
}

function ruleOptions(command: Command, creating: boolean): Command {
  return command
    .option('--name <name>', 'what the rule is called')
    .option('--kind <kind>', `when it fires: ${KINDS.join(', ')}`, oneOf(KINDS))
    .option('--environment <env>', "the SDK environment watched (e.g. production); 'all' for every one")
    .option('--levels <list>', `comma-separated levels watched (${LEVELS.join(', ')}), or all`, levels)
    .option('--events <n>', 'spike: events of one group (N)', integer('--events', 1, 1_000_000))
    .option('--minutes <m>', 'spike: the window in minutes (M)', integer('--minutes', 1, 1440))
    .option('--quiet <minutes>', 'at most one alert per group in this time (default 60)', integer('--quiet', 1, 10_080))
    .option('--recipients <ids>', 'comma-separated account ids of team members to e-mail (none: empty)', (raw) =>
      list(raw),
    )
    .option('--webhooks <on|off>', "also post error.alert to the project's webhooks (default on)", onOff)
    .option(
      '--mute [for]',
      `${creating ? 'create it muted' : 'mute it (keeps its settings)'} for 1h, 24h or 7d, or until unmuted (forever, the default)`,
      oneOf(MUTE_FOR),
    )
    .option('--unmute', 'unmute it (a timed mute too)');
}

/** The rule's body: the options given over `base` (the rule as it is, when updating). */
function bodyOf(flags: RuleFlags, base?: Rule): RuleBody {
  if (flags.mute && flags.unmute) throw new CliError('Give --mute or --unmute, not both');
  const name = flags.name ?? base?.name;
  const kind = flags.kind ?? base?.kind;
  if (!name || !kind) throw new CliError('A rule needs --name and --kind');
  const environment =
    flags.environment === undefined
      ? (base?.sdkEnvironment ?? null)
      : flags.environment === 'all'
        ? null
        : flags.environment;
  const spike =
    kind === 'spike'
      ? {
          spikeEvents: flags.events ?? base?.spikeEvents ?? undefined,
          spikeMinutes: flags.minutes ?? base?.spikeMinutes ?? undefined,
        }
      : {};
  return {
    name,
    kind,
    sdkEnvironment: environment,
    levels: (flags.levels ?? base?.levels ?? null) as RuleBody['levels'],
    ...spike,
    quietMinutes: flags.quiet ?? base?.quietMinutes,
    recipients: flags.recipients ?? base?.recipients ?? [],
    webhooks: flags.webhooks ?? base?.webhooks ?? true,
    // Without --mute or --unmute the rule keeps its mute (`mutedUntil` left out keeps it).
    ...(flags.mute ? { mute: flags.mute === true ? 'forever' : flags.mute } : flags.unmute ? { mute: 'off' } : {}),
    ...(flags.mute || flags.unmute ? {} : { enabled: base?.enabled ?? true }),
  };
}

/** "until unmuted", "until <time>" (a timed mute not yet over), or "no". */
const muteOf = (rule: Rule) =>
  !rule.enabled
    ? 'until unmuted'
    : rule.mutedUntil && Date.parse(rule.mutedUntil) > Date.now()
      ? `until ${rule.mutedUntil}`
      : 'no';

const when = (rule: Rule) =>
  rule.kind === 'spike' ? `spike ${rule.spikeEvents} in ${rule.spikeMinutes} min` : rule.kind.replace('_', ' ');

function printRule(rule: Rule): void {
  printFields([
    ['id', rule.id],
    ['name', rule.name],
    ['when', when(rule)],
    ['environment', rule.sdkEnvironment ?? 'every one'],
    ['levels', rule.levels?.join(',') ?? 'every level'],
    ['quiet', `${rule.quietMinutes} min`],
    ['recipients', rule.recipients.join(',') || 'none'],
    ['webhooks', rule.webhooks],
    ['enabled', rule.enabled],
    ['muted', muteOf(rule)],
  ]);
}

export function registerAlertCommands(program: Command): void {
  const alerts = usageExits(
    program
      .command('alerts')
      .description("A project's error alert rules: e-mail and webhooks on a new, regressed or spiking error group"),
  );
  const rulePath = (base: string, id: string) => `${base}/error-alerts/${encodeURIComponent(id)}`;

  withProject(alerts.command('list').description('Alert rules')).action(
    action(async (flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const { rules } = await client.get<{ rules: Rule[] }>(`${base}/error-alerts`);
      if (flags.json) return printJson({ rules });
      printTable(
        ['id', 'name', 'when', 'environment', 'levels', 'recipients', 'enabled', 'muted'],
        rules.map((rule) => [
          rule.id,
          rule.name,
          when(rule),
          rule.sdkEnvironment ?? 'all',
          rule.levels?.join(',') ?? 'all',
          rule.recipients.length,
          rule.enabled,
          muteOf(rule),
        ]),
        'No alert rules.',
      );
    }),
  );

  withProject(ruleOptions(alerts.command('create').description('Add an alert rule (admins)'), true))
    .addHelpText(
      'after',
      '\nExamples:\n  signpost alerts create --name "New in production" --kind new_group --environment production --recipients acc_1\n  signpost alerts create --name "Checkout spike" --kind spike --events 500 --minutes 5 --levels error,fatal',
    )
    .action(
      action(async (flags: RuleFlags) => {
        const { client, base } = projectContext(flags);
        const rule = await client.post<Rule>(`${base}/error-alerts`, bodyOf(flags));
        if (flags.json) return printJson(rule);
        say(`Created alert rule ${rule.id} (${rule.name}).`);
      }),
    );

  withProject(
    ruleOptions(
      alerts.command('update').description('Change an alert rule; options left out keep their value (admins)'),
      false,
    ).argument('<ruleId>', 'alert rule id'),
  ).action(
    action(async (id: string, flags: RuleFlags) => {
      const { client, base } = projectContext(flags);
      const current = await client.get<Rule>(rulePath(base, id));
      const rule = await client.put<Rule>(rulePath(base, id), bodyOf(flags, current));
      if (flags.json) return printJson(rule);
      const muted = muteOf(rule);
      const state = muted === 'no' ? '' : muted === 'until unmuted' ? ' (muted)' : ` (muted ${muted})`;
      say(`Updated alert rule ${rule.id}${state}.`);
      printRule(rule);
    }),
  );

  withProject(
    alerts.command('delete').description('Delete an alert rule (admins)').argument('<ruleId>', 'alert rule id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(rulePath(base, id));
      if (flags.json) return printJson({ deleted: id });
      say(`Deleted alert rule ${id}.`);
    }),
  );
}
