// Rebuilds search indexes from the store: `npm run reindex -- --project <id>`, or every project
// without --project, through the research service of the running system (see connectToRunningService).
import { parseArgs } from 'node:util';
import { connectToRunningService } from '@vrs/runtime';
import type { ResearchRouter } from '@vrs/research';

const { values } = parseArgs({ options: { project: { type: 'string' } } });

const { client: research, unreachable } = await connectToRunningService<ResearchRouter>('research', { caller: 'reindex' });
let projects: Awaited<ReturnType<typeof research.projects.reindex.mutate>>['projects'];
try {
  ({ projects } = await research.projects.reindex.mutate({ projectId: values.project }));
} catch (error) {
  console.error(unreachable(error));
  process.exit(1);
}
for (const project of projects) {
  if (project.outcome === 'indexed')
    console.log(`${project.projectId}: ${project.evidence} evidence items indexed (index version ${project.indexVersion})`);
  else console.log(`${project.projectId}: ${project.outcome === 'no-project' ? 'no such project' : 'no evidence to index'}`);
}
if (projects.length === 0) console.log('No projects in this store.');
if (values.project && projects[0]?.outcome === 'no-project') process.exit(1);
