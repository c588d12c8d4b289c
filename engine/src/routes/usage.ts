import { jsonSchemaOf, UsageResponse } from '@lootsmith/protocol';
import type { FastifyInstance } from 'fastify';
import type { Account } from '../accounts.ts';
import { accountOf } from '../auth.ts';
import { ERROR_RESPONSES } from './openapi.ts';

function usageOf(account: Account): UsageResponse {
  return {
    key: account.key.name,
    credits_remaining: account.credits.remaining,
    totals: { ...account.usage.totals },
    clients: account.usage.clientRows(),
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function usagePage(usage: UsageResponse): string {
  const columns = ['requests', 'images', 'chat_completions', 'tokens', 'credits_spent'] as const;
  const row = (label: string, counters: UsageResponse['totals']) =>
    `<tr><th scope="row">${escapeHtml(label)}</th>${columns.map((c) => `<td>${counters[c]}</td>`).join('')}</tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Usage: ${escapeHtml(usage.key)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}th,td{padding:.3rem .8rem;border-bottom:1px solid #ddd;text-align:right}th[scope=row]{text-align:left;font-family:monospace}tfoot th,tfoot td{font-weight:bold;border-top:2px solid #999}</style>
</head><body>
<h1>Usage of key “${escapeHtml(usage.key)}”</h1>
<p>Credits remaining: <strong>${usage.credits_remaining === null ? 'unlimited' : usage.credits_remaining}</strong></p>
<table><thead><tr><th>client_id</th>${columns.map((c) => `<th>${c.replace('_', ' ')}</th>`).join('')}</tr></thead>
<tbody>${usage.clients.map((c) => row(c.client_id, c)).join('\n') || '<tr><td colspan="6">No requests yet.</td></tr>'}</tbody>
<tfoot>${row('total', usage.totals)}</tfoot></table>
</body></html>`;
}

export function usageRoutes(app: FastifyInstance): void {
  app.get(
    '/v1/usage',
    {
      schema: {
        summary: 'Usage of the calling key: totals and one row per client_id',
        response: {
          200: {
            description: 'Usage',
            content: { 'application/json': { schema: jsonSchemaOf(UsageResponse) } },
          },
          401: ERROR_RESPONSES[401],
        },
      },
    },
    async (request) => usageOf(accountOf(request)),
  );
  app.get(
    '/v1/usage/page',
    {
      schema: {
        summary: 'Usage page (HTML) with the per-client_id table',
        description:
          'Accepts the key as a Bearer token, or as the password of HTTP Basic auth so a browser can open it.',
        response: {
          200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
          401: ERROR_RESPONSES[401],
        },
      },
    },
    async (request, reply) =>
      reply.type('text/html; charset=utf-8').send(usagePage(usageOf(accountOf(request)))),
  );
}
