import type { ModerationEvent, ModerationPage } from '@lootsmith/protocol';
import { api, query } from '../api.ts';
import { field, h, select, show, table } from '../dom.ts';
import { time } from '../format.ts';
import { action, link, playerHref } from '../parts.ts';

export async function moderationPage(view: HTMLElement, _path: string[], params: URLSearchParams) {
  const kind = params.get('kind') ?? '';
  const player = params.get('player') ?? '';
  const kinds = select(
    'kind',
    [
      ['', 'all text'],
      ['player_text', 'player text'],
      ['generated_text', 'generated text'],
    ],
    kind,
  );
  const who = h('input', {
    type: 'search',
    name: 'player',
    value: player,
    placeholder: 'player id',
    autocomplete: 'off',
  });
  const form = h(
    'form',
    { class: 'filters' },
    field('Kind', kinds),
    field('Player', who),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.hash = `#/moderation${query({ kind: kinds.value, player: who.value.trim() })}`;
  });
  kinds.addEventListener('change', () => form.requestSubmit());

  const events: ModerationEvent[] = [];
  const list = h('div', {});
  const more = h('div', { class: 'more' });
  const load = async (after?: string) => {
    const page = await api<ModerationPage>(
      'GET',
      `/api/v1/admin/moderation${query({ kind, player, after, limit: 50 })}`,
    );
    events.push(...page.events);
    show(
      list,
      table(
        ['when', 'player', 'kind', 'field', 'text', 'reason', 'action', 'times'],
        events.map((e) => [
          time(e.at),
          e.player_id
            ? link(playerHref(e.player_id), e.player_id)
            : h('span', { class: 'muted' }, 'the server'),
          e.kind.replace('_', ' '),
          h('code', {}, e.field),
          h('q', {}, e.excerpt),
          e.reason,
          e.action,
          String(e.count),
        ]),
        'No text has been refused.',
      ),
    );
    show(more, page.next && action('Show more', () => load(page.next ?? undefined)));
  };
  show(
    view,
    h('h1', {}, 'Moderation'),
    h(
      'p',
      { class: 'muted' },
      'Player text refused and generated text regenerated or replaced by the content checks: who, when and why.',
    ),
    form,
    list,
    more,
  );
  await load();
}
