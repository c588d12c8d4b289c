import { LootsmithError } from '@lootsmith/plugin';
import { h, showResult } from './dom.ts';
import { errorText } from './error-text.ts';
import type { Services } from './services.ts';

/** Shows a failed Lootsmith call in a panel's result area, and as a toast. */
export function showFailure(target: HTMLElement, e: unknown, s: Services) {
  const error = e instanceof LootsmithError ? e : new LootsmithError('network', String(e));
  const { title, detail } = errorText(error, (id) => s.state.item(id)?.name ?? id);
  showResult(
    target,
    h(
      'div',
      { class: `failure reason-${error.reason ?? error.code}` },
      h('b', {}, title),
      h('p', {}, detail),
    ),
  );
  s.toasts.show(error.reason ? 'warn' : 'error', title, detail);
}
