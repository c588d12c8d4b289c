import type { FastifyInstance } from 'fastify';
import { CSP } from '../http/security-headers.ts';

/** OpenAPI at `/docs`, from the routes' JSON Schemas (themselves derived from the protocol's zod schemas). */
export async function registerDocs(app: FastifyInstance) {
  const { default: swagger } = await import('@fastify/swagger');
  const { default: swaggerUi } = await import('@fastify/swagger-ui');
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Lootsmith server',
        version: '0.1.0',
        description: 'Loot, crafting and icons for Phaser games',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  // Swagger UI adds one inline <style>; its pages alone allow that.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: { ...CSP, 'style-src': ["'self'", "'unsafe-inline'"] },
  });
}
