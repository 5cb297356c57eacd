import type { Command } from 'commander';
import { action, nextPageHint, pageQuery, wholeNumber } from './action';

export function registerProjectCommands(program: Command) {
  const projects = program.command('projects').description('Research projects: list, create, delete');
  projects
    .command('list', { isDefault: true })
    .description('List your projects, newest first')
    .option('--limit <n>', 'how many (1-100)', wholeNumber)
    .option('--cursor <cursor>', 'the nextCursor of the previous page')
    .action(
      action(async (ctx, options: { limit?: number; cursor?: string }) => {
        const { data } = await ctx.call((api) =>
          api.GET('/projects', {
            params: { query: pageQuery(options) },
          }),
        );
        ctx.out.result(data, (page) =>
          [
            ctx.out.table(
              ['id', 'name', 'created'],
              page.data.map((project) => [project.id, project.name, project.createdAt]),
            ),
            ...nextPageHint(page),
          ].join('\n'),
        );
      }),
    );
  projects
    .command('create <name>')
    .description('Create a project')
    .action(
      action(async (ctx, name: string) => {
        const { data } = await ctx.call((api) => api.POST('/projects', { body: { name } }));
        ctx.out.result(data, (project) => `Created project ${project.id} (${project.name}).`);
      }),
    );
  projects
    .command('delete <projectId>')
    .description('Delete a project with its evidence, jobs and exports')
    .action(
      action(async (ctx, projectId: string) => {
        const { data } = await ctx.call((api) => api.DELETE('/projects/{projectId}', { params: { path: { projectId } } }));
        ctx.out.result(data, (deleted) => `Deleted project ${deleted.id}.`);
      }),
    );
}
