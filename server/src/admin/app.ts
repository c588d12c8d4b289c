import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.ts';

/** The built console (`npm run build`): `server/dist/console`, from the sources and from the build alike. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console/', import.meta.url));

/**
 * The console's page and assets at `/console/`. The page holds no data and no credential: everything
 * it shows comes from the admin API after sign-in. Assets have hashed names and are kept; the page is not.
 */
export async function registerConsoleApp(app: FastifyInstance) {
  app.get('/console', { schema: { hide: true } }, (_request, reply) => reply.redirect('console/'));
  if (!existsSync(join(CONSOLE_DIR, 'index.html'))) {
    app.get('/console/*', { schema: { hide: true } }, async () => {
      throw new ApiError(404, 'not_found', 'The console is not built: run `npm run build`');
    });
    return;
  }
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, {
    root: CONSOLE_DIR,
    prefix: '/console/',
    decorateReply: false,
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header(
        'cache-control',
        path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    },
  });
}
