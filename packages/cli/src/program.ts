import { Command, CommanderError } from 'commander';
import { registerAgentCommands } from './commands/agent';
import { registerAuthCommands } from './commands/auth';
import { registerCreditCommands } from './commands/credits';
import { registerImportCommand } from './commands/import';
import { registerKeyCommands } from './commands/keys';
import { registerMcpCommand } from './commands/mcp';
import { registerMonitoringCommands } from './commands/monitoring';
import { registerProjectCommands } from './commands/projects';
import { registerResearchCommands } from './commands/research';
import { registerYouTubeCommands } from './commands/youtube';
import { exitCodeOf, exitCodes } from './exit-codes';
import { Output } from './output';

export function buildProgram(): Command {
  const program = new Command('vrs')
    .description('The Video Research Service from the command line')
    .version('1.0.0')
    .option('--json', 'print results as JSON (errors as the envelope on stderr)')
    .option('--api-url <url>', 'the API origin (default: VRS_API_URL or http://127.0.0.1:8080)')
    .showHelpAfterError()
    // Before any command is added: subcommands copy it, so every usage error comes back to runCli.
    .exitOverride();
  for (const register of [
    registerAuthCommands,
    registerProjectCommands,
    registerImportCommand,
    registerResearchCommands,
    registerYouTubeCommands,
    registerAgentCommands,
    registerMonitoringCommands,
    registerCreditCommands,
    registerKeyCommands,
    registerMcpCommand,
  ]) {
    register(program);
  }
  return program;
}

/** Runs `vrs` with `argv` and answers the exit code: every error printed with its message and requestId. */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return exitCodes.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed the problem and the help already; --help and --version are not failures.
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    new Output({ json: argv.includes('--json') }).error(error);
    return exitCodeOf(error);
  }
}
