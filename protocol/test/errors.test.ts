import { describe, expect, it } from 'vitest';
import {
  ApiError,
  answerKind,
  ERROR_CODES,
  ERROR_REASONS,
  ErrorBody,
  errorBody,
  ImageGenerationRequest,
  parseRequest,
  requestError,
} from '../src/index.ts';

const refusal = (value: unknown, where?: string) => {
  try {
    parseRequest(ImageGenerationRequest, value, where);
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('parsed');
};

describe('one error model', () => {
  it('names a game-rule code as the reason too, and no other', () => {
    expect(errorBody('skill_too_low', 'Level 3 needed', { required_level: 3 })).toEqual({
      error: { code: 'skill_too_low', message: 'Level 3 needed', details: { required_level: 3 } },
      reason: 'skill_too_low',
    });
    expect(errorBody('unknown_slot', 'No such slot')).toEqual({
      error: { code: 'unknown_slot', message: 'No such slot' },
    });
    expect(ERROR_REASONS).toEqual([
      'insufficient_materials',
      'skill_too_low',
      'not_owned',
      'not_equippable',
      'wrong_slot',
      'not_consumable',
      'item_equipped',
      'rate_limit_exceeded',
      'budget_exceeded',
      'content_refused',
    ]);
  });

  it('tells the game’s and the content checks’ refusals from the caller’s mistakes and the server’s errors', () => {
    expect(answerKind(200, null)).toBe('ok');
    // A combine the judge refused answers 200 with its verdict.
    expect(answerKind(200, 'not_sensible')).toBe('game_refusal');
    for (const code of [
      'skill_too_low',
      'rate_limit_exceeded',
      'player_blocked',
      'grant_used',
      'too_many_items',
      'spend_cap_reached',
    ])
      expect(answerKind(ERROR_CODES[code as keyof typeof ERROR_CODES].status, code), code).toBe(
        'game_refusal',
      );
    expect(answerKind(400, 'content_refused')).toBe('content_refusal');
    expect(answerKind(403, 'player_restricted')).toBe('content_refusal');
    for (const [status, code] of [
      [400, 'invalid_request'],
      [401, 'unauthorized'],
      [404, 'not_found'],
      [400, 'unknown_enemy'],
      [499, 'aborted'],
      [429, 'status_429'],
    ] as const)
      expect(answerKind(status, code), code).toBe('client_error');
    for (const [status, code] of [
      [502, 'upstream_unavailable'],
      [502, 'generation_failed'],
      [500, 'internal'],
      [503, 'status_503'],
    ] as const)
      expect(answerKind(status, code), code).toBe('error');
  });

  it('accepts only the codes of the enum in an error body', () => {
    expect(ErrorBody.safeParse(errorBody('generation_failed', 'no valid answer')).success).toBe(true);
    expect(ErrorBody.safeParse({ error: { code: 'rate_limited', message: 'slow down' } }).success).toBe(
      false,
    );
  });

  it('reports a missing client_id first, with its own code, whatever else is wrong', () => {
    const err = refusal({ prompt: '', width: 9999, colour: 'red' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(400);
    expect(err.code).toBe('missing_client_id');
    expect(err.message).toMatch(/^client_id is required; /);
    expect(err.body().error.details).toEqual([
      { path: 'client_id', message: 'client_id is required' },
      { path: 'prompt', message: expect.stringMatching(/^prompt: /) },
      { path: 'width', message: expect.stringMatching(/^width: Too big/) },
      { path: '', message: 'unknown field: colour' },
    ]);
  });

  it('names every invalid field under where it was found, with invalid_request', () => {
    const err = refusal({ client_id: 'p1', prompt: 'a sword', steps: 2.5, colour: 'red' }, 'body');
    expect(err.code).toBe('invalid_request');
    expect(err.message).toBe(
      'body.steps: Invalid input: expected int, received number; unknown field: body.colour',
    );
    // No body at all names the missing fields rather than the body.
    expect(refusal(undefined).code).toBe('missing_client_id');
    // A JSON null body is wrong as it is.
    expect(refusal(null, 'body').message).toMatch(/^body: /);
  });

  it("maps the framework's refusals of a body to codes of the enum, keeping its status", () => {
    const framework = (code: string, statusCode: number) =>
      requestError(Object.assign(new Error('x'), { code, statusCode }), 1024);
    expect(framework('FST_ERR_CTP_BODY_TOO_LARGE', 413)).toMatchObject({
      status: 413,
      code: 'body_too_large',
      message: 'body: larger than 1024 bytes',
    });
    expect(framework('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415)?.code).toBe('invalid_content_type');
    expect(framework('FST_ERR_CTP_INVALID_JSON_BODY', 400)?.code).toBe('invalid_json');
    expect(framework('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400)?.code).toBe('invalid_request');
    expect(framework('FST_ERR_REP_INVALID_PAYLOAD_TYPE', 500)).toBeUndefined();
  });
});
