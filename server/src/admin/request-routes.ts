import {
  ItemsExportQuery,
  RequestDetail,
  RequestParams,
  RequestsExportQuery,
  RequestsPage,
  RequestsQuery,
  SpendExportQuery,
} from '@lootsmith/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { parse } from '../http/request.ts';
import type { RequestService } from './request-service.ts';
import { adminDocs } from './route-docs.ts';

/** A CSV answer, downloaded as a file named for what it holds and the day. */
function attachment(reply: FastifyReply, name: string, csv: string) {
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="lootsmith-${name}-${day}.csv"`)
    .header('cache-control', 'private, no-store')
    .send(csv);
}

/** The request log and the CSV exports, inside the console's door (`registerConsoleAuth`). */
export function registerRequestRoutes(scope: FastifyInstance, requests: RequestService) {
  scope.get(
    '/api/v1/admin/requests',
    {
      schema: adminDocs('the request log: answered game requests, newest first, by player, route and kind', {
        query: RequestsQuery,
        response: RequestsPage,
      }),
    },
    async (request) => requests.list(parse(RequestsQuery, request.query, 'query')),
  );

  scope.get(
    '/api/v1/admin/requests/:request_id',
    {
      schema: adminDocs('one request: its body as read, the backend calls it made, what it answered', {
        response: RequestDetail,
      }),
    },
    async (request) => requests.detail(parse(RequestParams, request.params, 'params').request_id),
  );

  scope.get(
    '/api/v1/admin/export/requests.csv',
    { schema: adminDocs('the request log as CSV, filtered as the list is', { query: RequestsExportQuery }) },
    async (request, reply) =>
      attachment(
        reply,
        'requests',
        await requests.requestsCsv(parse(RequestsExportQuery, request.query, 'query')),
      ),
  );

  scope.get(
    '/api/v1/admin/export/spend.csv',
    {
      schema: adminDocs('spend per day, route and backend (or per day and player) as CSV', {
        query: SpendExportQuery,
      }),
    },
    async (request, reply) =>
      attachment(reply, 'spend', await requests.spendCsv(parse(SpendExportQuery, request.query, 'query'))),
  );

  scope.get(
    '/api/v1/admin/export/items.csv',
    { schema: adminDocs('generated items as CSV, newest first', { query: ItemsExportQuery }) },
    async (request, reply) =>
      attachment(reply, 'items', await requests.itemsCsv(parse(ItemsExportQuery, request.query, 'query'))),
  );
}
