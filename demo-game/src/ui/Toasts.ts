import { h } from './dom.ts';

export type ToastKind = 'info' | 'success' | 'warn' | 'error';

export interface ToastRecord {
  kind: ToastKind;
  title: string;
  detail?: string;
}

/** At most this many at once: older ones give way, so messages never pile up over the game. */
const MAX_SHOWN = 3;

/**
 * Short messages in a corner; errors stay a little longer. A message repeated while still shown
 * counts up instead of stacking, and toasts with one `group` (pick-ups) replace each other.
 */
export class Toasts {
  readonly root = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
  /** Everything shown so far (newest last), for the test hook. */
  readonly history: ToastRecord[] = [];

  show(kind: ToastKind, title: string, detail?: string, group?: string) {
    this.history.push({ kind, title, ...(detail ? { detail } : {}) });
    const same = [...this.root.children].find(
      (el): el is HTMLElement =>
        el instanceof HTMLElement &&
        !el.classList.contains('leaving') &&
        ((group !== undefined && el.dataset.group === group) ||
          (el.dataset.title === title && el.dataset.detail === (detail ?? ''))),
    );
    const repeats = same && same.dataset.title === title ? Number(same.dataset.repeats ?? 1) + 1 : 1;
    const toast = h(
      'div',
      {
        class: `toast toast-${kind}`,
        'data-title': title,
        'data-detail': detail ?? '',
        'data-repeats': String(repeats),
        'data-group': group,
      },
      h(
        'div',
        { class: 'toast-title' },
        title,
        repeats > 1 && h('span', { class: 'repeats' }, ` ×${repeats}`),
      ),
      detail && h('div', { class: 'toast-detail' }, detail),
    );
    const dismiss = () => {
      toast.classList.add('leaving');
      setTimeout(() => toast.remove(), 250);
    };
    toast.addEventListener('click', dismiss);
    if (same) same.replaceWith(toast);
    else this.root.append(toast);
    while (this.root.children.length > MAX_SHOWN) this.root.firstElementChild?.remove();
    setTimeout(dismiss, kind === 'error' || kind === 'warn' ? 6000 : 3500);
  }
}
