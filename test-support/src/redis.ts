import { connect } from 'node:net';

export const REDIS_URL = process.env.LOOTSMITH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Whether Redis answers; CI starts it (.ci/run), elsewhere a missing Redis skips a suite visibly. */
export async function redisAnswers(): Promise<boolean> {
  const { hostname, port } = new URL(REDIS_URL);
  const answered = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (!answered && process.env.CI) throw new Error(`Redis is not reachable at ${REDIS_URL}`);
  return answered;
}
