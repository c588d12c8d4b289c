import { LootsmithError } from '@lootsmith/plugin';
import { h, showResult } from './dom.ts';
import { type ErrorContext, errorText, type Words } from './error-text.ts';
import type { Services } from './services.ts';

/**
 * Any thrown value as the words a player sees (undefined when the player stopped it), logging the
 * failure as it came, field paths and all, for the developer's console.
 */
export function failureWords(
  e: unknown,
  context: ErrorContext = {},
): (Words & { error: LootsmithError }) | undefined {
  const error = e instanceof LootsmithError ? e : new LootsmithError('network', String(e));
  if (error.code === 'aborted') return undefined;
  console.warn(
    `Lootsmith: ${context.action ?? 'a call'} failed: ${error.code}: ${error.message}`,
    error.details ?? '',
  );
  return { ...errorText(error, context), error };
}

/** Shows a failed Lootsmith call in a panel's result area, and as a toast, in the game's words. */
export function showFailure(target: HTMLElement, e: unknown, s: Services, action: ErrorContext['action']) {
  const words = failureWords(e, {
    action,
    nameOf: (id) => s.state.item(id)?.name ?? id,
    ...(s.state.game ? { createPerHour: s.state.game.create_item.per_hour } : {}),
  });
  if (!words) return;
  const { error, title, detail } = words;
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
