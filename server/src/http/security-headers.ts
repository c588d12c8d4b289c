import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer: fits a Phaser game served from `LOOTSMITH_STATIC_DIR`
 * (its own scripts only; textures from data: and blob: URLs) and anything else the server sends.
 */
export const CSP: Record<string, string[]> = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  // Phaser sets style attributes (`setAttribute('style', …)` for its viewport ruler): attributes only,
  // never a <style> element or a stylesheet from elsewhere.
  'style-src-attr': ["'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'media-src': ["'self'", 'data:', 'blob:'],
  'connect-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'self'"],
  'form-action': ["'self'"],
};

/**
 * Security headers on every answer (`@fastify/helmet`): the CSP above, `nosniff`, frame and referrer
 * policies. Resources may be read cross-origin: a game on another origin loads icons from here.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
