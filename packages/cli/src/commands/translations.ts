/** `signpost translations …`: locales, keys, texts, JSON files in and out, and keys reported missing. */
import type { Command } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  defined,
  list,
  oneOf,
  projectContext,
  requireChanges,
  usageExits,
  withPaging,
  withProject,
  type CommonFlags,
} from '../manage/common.ts';
import { action, CliError, EXIT } from '../manage/errors.ts';
import { printFields, printJson, printPaging, printTable, say } from '../manage/output.ts';
import { exportPath, inferFromPath } from '../manage/translation-files.ts';
import type { Answer } from '../manage/api.ts';

type Key = Answer<'manageGetTranslationKey'>;
type Locales = Answer<'manageGetLocales'>;
type ImportResult = Answer<'manageImportTranslations'>;

const keyPath = (base: string, key: string) => `${base}/translations/keys/${encodeURIComponent(key)}`;

function showKey(key: Key): void {
  printFields([
    ['Key', key.key],
    ['Default text', key.defaultText],
    ['Namespace', key.namespace],
    ['Category', key.category],
    ...Object.entries(key.translations).map(([locale, text]): [string, string] => [`  ${locale}`, text]),
  ]);
}

/** `--text de=Hallo --text fr=Salut` */
function localeText(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at < 1) throw new CliError(`--text takes locale=text, got "${value}"`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

export function registerTranslationCommands(program: Command): void {
  const translations = usageExits(
    program.command('translations').alias('i18n').description("A project's translations"),
  );

  withProject(
    translations
      .command('locales')
      .description('Show or change the default and supported locales')
      .option('--default <locale>', 'the default locale (every key falls back to it)')
      .option('--supported <list>', 'supported locales, comma-separated', list),
  ).action(
    action(async (flags: CommonFlags & { default?: string; supported?: string[] }) => {
      const { client, base } = projectContext(flags);
      const body = defined({ defaultLocale: flags.default, supportedLocales: flags.supported });
      const locales = Object.keys(body).length
        ? await client.patch<Locales>(`${base}/translations/locales`, body)
        : await client.get<Locales>(`${base}/translations/locales`);
      if (flags.json) return printJson(locales);
      printFields([
        ['Default locale', locales.defaultLocale],
        ['Supported', locales.supportedLocales.join(', ')],
      ]);
    }),
  );

  withPaging(
    withProject(translations.command('keys').description('Keys with their texts, by key'))
      .option('--namespace <ns>', 'one namespace')
      .option('--category <name>', 'one category')
      .option('--search <text>', 'text in the key or default text')
      .option('--missing <locale>', 'only keys without a text in this locale'),
    100,
  ).action(
    action(async (flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      const result = await client.get<{ keys: Key[]; total: number; offset: number }>(`${base}/translations/keys`, {
        namespace: flags['namespace'],
        category: flags['category'],
        q: flags['search'],
        missingLocale: flags['missing'],
        limit: flags['limit'],
        offset: flags['offset'],
      });
      if (flags.json) return printJson(result);
      printTable(
        ['key', 'namespace', 'default text', 'locales'],
        result.keys.map((k) => [k.key, k.namespace, k.defaultText, Object.keys(k.translations).join(',')]),
        'No translation keys.',
      );
      printPaging(result.keys.length, result.total, result.offset);
    }),
  );

  withProject(
    translations
      .command('add')
      .description('Create a key')
      .argument('<key>', 'letters, digits, dots, underscores, hyphens')
      .argument('<defaultText>', 'the text used when no locale has one')
      .option('--namespace <ns>', 'namespace')
      .option('--category <name>', 'category')
      .option('--text <locale=text>', 'a translation (repeatable)', localeText),
  )
    .addHelpText(
      'after',
      '\nExample:\n  signpost translations add checkout.pay "Pay now" --namespace checkout --text de="Jetzt bezahlen"',
    )
    .action(
      action(async (key: string, defaultText: string, flags: CommonFlags & Record<string, any>) => {
        const { client, base } = projectContext(flags);
        const created = await client.post<Key>(
          `${base}/translations/keys`,
          defined({
            key,
            defaultText,
            namespace: flags['namespace'],
            category: flags['category'],
            translations: flags['text'],
          }),
        );
        if (flags.json) return printJson(created);
        say(`Created key ${created.key}.`);
      }),
    );

  withProject(translations.command('show').description('One key with its texts').argument('<key>', 'key')).action(
    action(async (key: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const found = await client.get<Key>(keyPath(base, key));
      if (flags.json) printJson(found);
      else showKey(found);
    }),
  );

  withProject(
    translations
      .command('set')
      .description("Set a key's text in one locale")
      .argument('<key>', 'key')
      .argument('<locale>', 'locale, e.g. de')
      .argument('<text>', 'the text'),
  ).action(
    action(async (key: string, locale: string, text: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const updated = await client.put<Key>(`${keyPath(base, key)}/values/${encodeURIComponent(locale)}`, { text });
      if (flags.json) printJson(updated);
      else say(`Set ${key} in ${locale}.`);
    }),
  );

  withProject(
    translations
      .command('unset')
      .description("Remove a key's text in one locale")
      .argument('<key>', 'key')
      .argument('<locale>', 'locale'),
  ).action(
    action(async (key: string, locale: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      const updated = await client.delete<Key>(`${keyPath(base, key)}/values/${encodeURIComponent(locale)}`);
      if (flags.json) printJson(updated);
      else say(`Removed the ${locale} text of ${key}.`);
    }),
  );

  withProject(
    translations
      .command('edit')
      .description("Change a key's default text, namespace or category")
      .argument('<key>', 'key')
      .option('--default-text <text>', 'default text')
      .option('--namespace <ns>', 'namespace ("" clears it)')
      .option('--category <name>', 'category ("" clears it)'),
  ).action(
    action(async (key: string, flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      const clear = (value: string | undefined) => (value === '' ? null : value);
      const body = defined({
        defaultText: flags['defaultText'],
        namespace: clear(flags['namespace']),
        category: clear(flags['category']),
      });
      requireChanges(body, '--default-text, --namespace, --category');
      const updated = await client.patch<Key>(keyPath(base, key), body);
      if (flags.json) printJson(updated);
      else showKey(updated);
    }),
  );

  withProject(
    translations.command('delete').description('Delete a key and all its texts').argument('<key>', 'key'),
  ).action(
    action(async (key: string, flags: CommonFlags) => {
      const { client, base } = projectContext(flags);
      await client.delete(keyPath(base, key));
      if (flags.json) printJson({ deleted: key });
      else say(`Deleted key ${key}.`);
    }),
  );

  withProject(
    translations
      .command('import')
      .description(
        'Import JSON translation files, one locale each: flat {"a.b": "text"} or nested {"a": {"b": "text"}}',
      )
      .argument('<files...>', 'de.json, de/common.json or common.de.json')
      .option('--locale <locale>', 'locale of the files (default: from each file name)')
      .option('--namespace <ns>', 'namespace for keys the import creates (default: from the file name, if any)')
      .option('--no-overwrite', 'keep texts already stored for the locale'),
  )
    .addHelpText(
      'after',
      "\nA file fills its own locale only. Keys that do not exist yet are created; the default locale's file also\n" +
        "gives them (and keys without one) their default text, so another locale's text is never served in its place.\n\nExamples:\n" +
        '  signpost translations import locales/de.json locales/fr.json\n  signpost translations import locales/de/checkout.json\n' +
        '  signpost translations import strings.json --locale en --namespace common',
    )
    .action(
      action(
        async (files: string[], flags: CommonFlags & { locale?: string; namespace?: string; overwrite: boolean }) => {
          const { client, base } = projectContext(flags);
          const results: Array<ImportResult & { file: string }> = [];
          for (const file of files) {
            const inferred = inferFromPath(file);
            const locale = flags.locale ?? inferred.locale;
            if (!locale) throw new CliError(`Cannot tell the locale of ${file}: name it like de.json or pass --locale`);
            let content: unknown;
            try {
              content = JSON.parse(readFileSync(file, 'utf8'));
            } catch (error) {
              throw new CliError(`Cannot read ${file}: ${(error as Error).message}`, EXIT.environment);
            }
            const result = await client.post<ImportResult>(`${base}/translations/import`, content, {
              locale,
              namespace: flags.namespace ?? inferred.namespace,
              overwrite: flags.overwrite,
            });
            results.push({ file, ...result });
          }
          if (flags.json) return printJson({ imports: results });
          for (const r of results) {
            say(
              `${r.file}: ${r.locale}${r.namespace ? `/${r.namespace}` : ''}: ${r.created.length} created, ${r.updated.length} updated, ${r.unchanged.length} unchanged`,
            );
            if (r.unsupportedLocale)
              say(
                `  note: ${r.locale} is not a supported locale of the project (add it with: signpost translations locales --supported …)`,
              );
          }
        },
      ),
    );

  withProject(
    translations
      .command('export')
      .description(
        'Export translations as JSON files, one per locale (to standard output for a single locale without --out)',
      )
      .option('--locale <list>', 'locales to export (default: every supported locale)', list)
      .option('--namespace <ns>', 'one namespace (files go to <out>/<locale>/<ns>.json)')
      .option(
        '--format <format>',
        'flat ({"a.b": "text"}) or nested ({"a": {"b": "text"}})',
        oneOf(['flat', 'nested'] as const),
        'flat',
      )
      .option('--fallback', 'fill keys without a text from the fallback chain (language, default locale, default text)')
      .option('--out <dir>', 'folder to write <locale>.json files into'),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost translations export --locale de > de.json\n  signpost translations export --out locales --format nested',
    )
    .action(
      action(
        async (
          flags: CommonFlags & {
            locale?: string[];
            namespace?: string;
            format: string;
            fallback?: boolean;
            out?: string;
          },
        ) => {
          const { client, base } = projectContext(flags);
          const locales = flags.locale ?? (await client.get<Locales>(`${base}/translations/locales`)).supportedLocales;
          const fetchFile = (locale: string) =>
            client.get<Record<string, unknown>>(`${base}/translations/export`, {
              locale,
              namespace: flags.namespace,
              format: flags.format,
              fallback: flags.fallback,
            });
          if (!flags.out) {
            if (locales.length !== 1)
              throw new CliError('Give one --locale to print a file, or --out <dir> to write one file per locale');
            return printJson(await fetchFile(locales[0]!));
          }
          const written: Array<{ locale: string; file: string; keys: number }> = [];
          for (const locale of locales) {
            const content = await fetchFile(locale);
            const file = exportPath(flags.out, locale, flags.namespace);
            mkdirSync(dirname(file), { recursive: true });
            writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
            written.push({ locale, file, keys: countLeaves(content) });
          }
          if (flags.json) return printJson({ files: written });
          for (const w of written) say(`Wrote ${w.file} (${w.keys} keys)`);
        },
      ),
    );

  withPaging(
    withProject(
      translations
        .command('missing')
        .description('Keys the i18n SDK reported missing, most reported first; --add creates them as keys'),
    )
      .option('--env <env>', 'live or test key reports (default live)', oneOf(['live', 'test'] as const))
      .option('--locale <locale>', 'one locale')
      .option('--all', 'also list reports that have a text by now')
      .option('--add', 'create a key for every reported key that is not one yet (or the --keys given)')
      .option('--keys <list>', 'with --add: only these keys', list)
      .option('--namespace <ns>', 'with --add: namespace of the new keys')
      .option('--category <name>', 'with --add: category of the new keys'),
    100,
  ).action(
    action(async (flags: CommonFlags & Record<string, any>) => {
      const { client, base } = projectContext(flags);
      if (flags['add']) {
        const result = await client.post<{ created: string[]; existing: string[]; invalid: string[] }>(
          `${base}/translations/missing/keys`,
          defined({
            environment: flags['env'],
            keys: flags['keys'],
            namespace: flags['namespace'],
            category: flags['category'],
          }),
        );
        if (flags.json) return printJson(result);
        say(`Created ${result.created.length} key(s)${result.created.length ? `: ${result.created.join(', ')}` : ''}.`);
        if (result.existing.length) say(`Already keys: ${result.existing.join(', ')}`);
        if (result.invalid.length) say(`Not valid key names (skipped): ${result.invalid.join(', ')}`);
        if (result.created.length)
          say('Their default text is the key itself; set real texts with `signpost translations edit` or `set`.');
        return;
      }
      const result = await client.get<{ missing: Array<Record<string, any>>; total: number; offset: number }>(
        `${base}/translations/missing`,
        {
          environment: flags['env'],
          locale: flags['locale'],
          includeResolved: flags['all'],
          limit: flags['limit'],
          offset: flags['offset'],
        },
      );
      if (flags.json) return printJson(result);
      printTable(
        ['key', 'locale', 'reports', 'last seen', 'key exists'],
        result.missing.map((m) => [m['key'], m['locale'], m['occurrences'], m['lastSeenAt'], m['keyExists']]),
        'No missing keys reported.',
      );
      printPaging(result.missing.length, result.total, result.offset);
    }),
  );
}

function countLeaves(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  return Object.values(value).reduce<number>((sum, child) => sum + countLeaves(child), 0);
}
