/** `signpost projects …`: list, show, create, update, and choose the default project. */
import type { Command } from 'commander';
import {
  defined,
  integer,
  list,
  requireChanges,
  signedInClient,
  usageExits,
  withServer,
  type CommonFlags,
} from '../manage/common.ts';
import { resolveTarget, writeConfig } from '../manage/config.ts';
import { action } from '../manage/errors.ts';
import { printFields, printJson, printTable, say } from '../manage/output.ts';
import type { Answer } from '../manage/api.ts';

type Project = Answer<'getProject'>;

function showProject(project: Project): void {
  printFields([
    ['Id', project.id],
    ['Name', project.name],
    ['Slug', project.slug],
    ['Team', project.teamId],
    ['Your role', project.role],
    ['Locales', `${project.defaultLocale} (default); ${project.supportedLocales.join(', ')}`],
    ['Plan', project.plan],
    ['Monthly quota', project.monthlyQuota ?? 'unlimited'],
    ['Created', project.createdAt],
  ]);
}

interface ProjectFlags extends CommonFlags {
  slug?: string;
  name?: string;
  team?: string;
  locales?: string[];
  defaultLocale?: string;
  plan?: string;
  quota?: number;
  unlimited?: boolean;
  quiet?: boolean;
  use?: boolean;
}

export function registerProjectCommands(program: Command): void {
  const projects = usageExits(program.command('projects').description("Your teams' projects"));

  withServer(projects.command('list').description('Projects of every team you belong to')).action(
    action(async (flags: CommonFlags) => {
      const { projects: rows } = await signedInClient(flags).get<{ projects: Project[] }>('/projects');
      if (flags.json) return printJson({ projects: rows });
      const current = resolveTarget(flags).project;
      printTable(
        ['', 'id', 'name', 'slug', 'role', 'locales'],
        rows.map((p) => [p.id === current ? '*' : ' ', p.id, p.name, p.slug, p.role, p.supportedLocales.join(',')]),
        'No projects yet. Create one with: signpost projects create <name>',
      );
    }),
  );

  withServer(projects.command('show').description('One project').argument('<id>', 'project id')).action(
    action(async (id: string, flags: CommonFlags) => {
      const project = await signedInClient(flags).get<Project>(`/projects/${encodeURIComponent(id)}`);
      if (flags.json) printJson(project);
      else showProject(project);
    }),
  );

  withServer(
    projects
      .command('create')
      .description('Create a project (then create keys with `signpost keys create`)')
      .argument('<name>', 'display name')
      .option('--slug <slug>', 'URL-friendly name (default: from the name)')
      .option('--team <id>', 'team that owns it (default: the team you own)')
      .option('--locales <list>', 'supported locales, the first is the default (e.g. en,de)', list)
      .option('--plan <plan>', 'plan name')
      .option('--quota <n>', 'monthly request quota on the public API (default: unlimited)', integer('--quota', 1))
      .option('--use', 'make it the default project of later commands')
      .option('-q, --quiet', "print only the new project's id, e.g. for PROJECT=$(signpost projects create … -q)"),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  signpost projects create "My App" --locales en,de --use\n  PROJECT=$(signpost projects create "My App" --use --quiet)',
    )
    .action(
      action(async (name: string, flags: ProjectFlags) => {
        const body = defined({
          name,
          slug: flags.slug,
          teamId: flags.team,
          defaultLocale: flags.locales?.[0],
          supportedLocales: flags.locales,
          plan: flags.plan,
          monthlyQuota: flags.quota,
        });
        const project = await signedInClient(flags).post<Project>('/projects', body);
        if (flags.use) useProject(flags, project.id);
        if (flags.json) return printJson(project);
        if (flags.quiet) return say(project.id);
        say(`Created project ${project.name} (${project.id}).${flags.use ? ' It is now the default project.' : ''}`);
      }),
    );

  withServer(
    projects
      .command('update')
      .description('Change name, slug, locales, plan or quota of a project')
      .argument('<id>', 'project id')
      .option('--name <name>', 'display name')
      .option('--slug <slug>', 'URL-friendly name')
      .option('--locales <list>', 'supported locales (e.g. en,de,fr)', list)
      .option('--default-locale <locale>', 'default locale')
      .option('--plan <plan>', 'plan name')
      .option('--quota <n>', 'monthly request quota', integer('--quota', 1))
      .option('--unlimited', 'remove the monthly quota'),
  ).action(
    action(async (id: string, flags: ProjectFlags) => {
      const body = defined({
        name: flags.name,
        slug: flags.slug,
        supportedLocales: flags.locales,
        defaultLocale: flags.defaultLocale,
        plan: flags.plan,
        monthlyQuota: flags.unlimited ? null : flags.quota,
      });
      requireChanges(body, '--name, --slug, --locales, --default-locale, --plan, --quota, --unlimited');
      const project = await signedInClient(flags).patch<Project>(`/projects/${encodeURIComponent(id)}`, body);
      if (flags.json) printJson(project);
      else showProject(project);
    }),
  );

  withServer(
    projects
      .command('use')
      .description('Make a project the default of later commands on this server')
      .argument('<id>', 'project id'),
  ).action(
    action(async (id: string, flags: CommonFlags) => {
      const project = await signedInClient(flags).get<Project>(`/projects/${encodeURIComponent(id)}`);
      useProject(flags, project.id);
      if (flags.json) printJson({ project: project.id });
      else say(`Default project: ${project.name} (${project.id}).`);
    }),
  );
}

function useProject(flags: CommonFlags, projectId: string): void {
  const target = resolveTarget(flags);
  target.config.servers[target.url] = { ...target.config.servers[target.url], project: projectId };
  writeConfig(target.config);
}
