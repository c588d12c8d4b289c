// The parts of the server, engine and plugin that suites and benchmarks use but the packages do not
// publish: units measured or fuzzed on their own, and paths inside the server package. Everything else
// comes from the packages' own names (`lootsmith`, `@lootsmith/engine`, `@lootsmith/protocol`). With
// game-file.ts (the shipped games' loader), process.ts (the CLI a child process runs) and backends.ts
// (the server's registry of backends), this is the one place outside the packages that reaches into
// their sources.
export { loadKeysFile } from '../../engine/src/keys.ts';
export { decodePng } from '../../engine/src/painter/png-decode.ts';
export { readPrompt } from '../../engine/src/painter/prompt.ts';
export { LootsmithClient } from '../../plugin/src/core/client.ts';
export type { ActivityRecorder } from '../../server/src/admin/activity.ts';
export { CONSOLE_DIR } from '../../server/src/admin/app.ts';
export { RequestLog } from '../../server/src/admin/requests.ts';
export { POOL_DEFAULTS } from '../../server/src/config.ts';
export { TextFilter } from '../../server/src/content/filter.ts';
export { itemTexts } from '../../server/src/content/guard.ts';
export { agreementProblems } from '../../server/src/game/agreement.ts';
export { runGameCommand } from '../../server/src/game/commands.ts';
export { loadGameDefinition } from '../../server/src/game/definition.ts';
export { dropLimits } from '../../server/src/game/loot-authority.ts';
export { pickWeighted, seededRandom } from '../../server/src/game/random.ts';
export { checkItem } from '../../server/src/game/rules.ts';
export { gameLines } from '../../server/src/generation/prompts.ts';
export { normaliseIcon } from '../../server/src/images/normalise.ts';
export { Secrets } from '../../server/src/secrets.ts';
export {
  INVENTORY,
  INVENTORY_VERSIONS,
  PLAYER,
  PostgresStore,
  reserveGroupQuery,
} from '../../server/src/store/postgres.ts';
export { plan } from '../../server/src/store/reservation.ts';
export { checkImage } from '../../server/src/upstream/image.ts';
