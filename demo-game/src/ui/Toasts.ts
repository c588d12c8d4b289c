import { h } from './dom.ts';

export type ToastKind = 'info' | 'success' | 'warn' | 'error';

export interface ToastRecord {
  kind: ToastKind;
  title: string;
  detail?: string;
}

/** Short messages in the corner; errors stay a little longer. */
export class Toasts {
  readonly root = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
  /** Everything shown so far (newest last), for the test hook. */
  readonly history: ToastRecord[] = [];

  show(kind: ToastKind, title: string, detail?: string) {
    this.history.push({ kind, title, ...(detail ? { detail } : {}) });
    const toast = h(
      'div',
      { class: `toast toast-${kind}` },
      h('div', { class: 'toast-title' }, title),
      detail && h('div', { class: 'toast-detail' }, detail),
    );
    const dismiss = () => {
      toast.classList.add('leaving');
      setTimeout(() => toast.remove(), 250);
    };
    toast.addEventListener('click', dismiss);
    this.root.append(toast);
    while (this.root.children.length > 5) this.root.firstElementChild?.remove();
    setTimeout(dismiss, kind === 'error' || kind === 'warn' ? 7000 : 4000);
  }
}
