import { stripVTControlCharacters } from 'node:util';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { jsonAccessLog, readableAccessLog } from '../src/access-log.ts';

const request = { id: 'req-7', method: 'GET', url: '/api/v1/player/p-1/inventory?x=1' } as FastifyRequest;
const reply = { statusCode: 200 } as FastifyReply;

describe('the access log', () => {
  it('writes the development line as pino-pretty wrote it', () => {
    const lines: string[] = [];
    readableAccessLog('info', (line) => lines.push(line))?.(request, reply, 2.6);
    expect(lines).toHaveLength(1);
    // Coloured as pino-pretty colours it when the terminal has colours; the text is the same.
    expect(stripVTControlCharacters(lines[0] as string)).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: incoming request GET \/api\/v1\/player\/p-1\/inventory\?x=1 200 in 3 ms \{"reqId":"req-7"\}\n$/,
    );
  });

  it('writes JSON lines with the fields log searches read', () => {
    const lines: string[] = [];
    jsonAccessLog('info', {}, { write: (line: string) => lines.push(line) })?.(request, reply, 2.6);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 30,
      reqId: 'req-7',
      req: { method: 'GET', url: '/api/v1/player/p-1/inventory?x=1' },
      res: { statusCode: 200 },
      responseTime: 2.6,
      msg: 'incoming request',
    });
  });

  it('writes nothing at a level above info, silent included', () => {
    for (const level of ['warn', 'error', 'fatal', 'silent']) {
      expect(readableAccessLog(level, () => {})).toBeUndefined();
      expect(jsonAccessLog(level, {}, { write: () => {} })).toBeUndefined();
    }
  });
});
