import { settingsHelp } from '@lootsmith/protocol';
import { type Config, ConfigError, loadConfig, SETTINGS } from './config.ts';
import { runDoctor } from './doctor.ts';
import { GAME_COMMANDS_HELP, runGameCommand } from './game/commands.ts';
import { DEFAULT_GAME_FILE } from './game/definition.ts';
import { nodeRefusal } from './node-version.ts';
import { startServer } from './server.ts';

const HELP = `lootsmith — the Lootsmith server: players, inventories, loot, crafting and icons

Usage: lootsmith                   serve the API (OpenAPI at /docs)
       lootsmith doctor            check the configured chat and image backends, then exit (non-zero when one is broken)
       lootsmith check|init|types  work on a game file (see Commands below)
       lootsmith --help

With no backend configured, content comes from the embedded /v1 engine on loopback, so it runs
offline; docs/BACKENDS.md has a recipe for OpenAI, Ollama, AUTOMATIC1111/Forge, stable-diffusion.cpp,
ComfyUI and OpenRouter. Configuration is by environment variable (a bad value stops start-up and
names it):

${settingsHelp(SETTINGS)}
${GAME_COMMANDS_HELP}`;

function config(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/** Where each kind of content comes from, for the start-up line. */
function contentOf(c: Config): string {
  const where = (spec: Config['upstream']['chat' | 'image']) =>
    spec.api === 'embedded' ? 'the embedded engine' : `${spec.api} (${new URL(spec.url as string).origin})`;
  const { chat, image } = c.upstream;
  if (chat.api === 'embedded' && image.api === 'embedded')
    return 'content from the embedded engine (offline)';
  return `chat from ${where(chat)}, images from ${where(image)}`;
}

async function main(argv: string[]) {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const commandExit = await runGameCommand(argv);
  if (commandExit !== undefined) {
    process.exitCode = commandExit;
    return;
  }
  if (argv[0] === 'doctor' && argv.length === 1) {
    const healthy = await runDoctor(config(), (line) => process.stdout.write(`${line}\n`));
    process.exit(healthy ? 0 : 1);
  }
  if (argv.length) {
    process.stderr.write(
      `Unknown argument ${argv[0]}; lootsmith is configured by environment variables (see --help)\n`,
    );
    process.exit(2);
  }
  const settings = config();
  const server = await startServer(settings);
  const game = settings.staticDir ? ` and ${settings.staticDir} at /` : '';
  server.app.log.info(
    `Lootsmith serving the API, /docs, /console${game} at ${server.url}/; ${contentOf(settings)}`,
  );
  server.app.log.info(`game ${server.core.deps.game.name} from ${settings.gameFile ?? DEFAULT_GAME_FILE}`);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      server.app.log.info(`${signal}: finishing in-flight requests`);
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
}

const refusal = nodeRefusal();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(1);
}
main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`lootsmith: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
