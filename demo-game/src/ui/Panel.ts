import { h } from './dom.ts';

/** A window over the game. One is open at a time; Escape or the × closes it. */
export abstract class Panel {
  readonly root: HTMLElement;
  protected readonly body: HTMLElement;
  readonly #host: PanelHost;

  constructor(host: PanelHost, id: string, title: string, className = '') {
    this.#host = host;
    this.body = h('div', { class: 'panel-body' });
    this.root = h(
      'section',
      { class: `panel ${className}`, id, role: 'dialog', 'aria-label': title },
      h(
        'header',
        { class: 'panel-head' },
        h('h2', {}, title),
        h(
          'button',
          { type: 'button', class: 'close', 'aria-label': 'Close', onclick: () => this.close() },
          '×',
        ),
      ),
      this.body,
    );
  }

  get isOpen() {
    return this.#host.current === this;
  }

  open() {
    this.#host.show(this);
    this.render();
  }

  close() {
    if (this.isOpen) this.#host.show(undefined);
  }

  toggle() {
    if (this.isOpen) this.close();
    else this.open();
  }

  /** Paints the panel from the current state; called on open and whenever the state changes. */
  abstract render(): void;
}

export class PanelHost {
  readonly root = h('div', { class: 'panel-host' });
  current: Panel | undefined;

  constructor() {
    this.root.addEventListener('pointerdown', (event) => {
      if (event.target === this.root) this.show(undefined);
    });
    window.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.current) this.show(undefined);
    });
  }

  show(panel: Panel | undefined) {
    this.current = panel;
    this.root.replaceChildren(...(panel ? [panel.root] : []));
    this.root.classList.toggle('open', panel !== undefined);
    if (!panel && document.activeElement instanceof HTMLElement) document.activeElement.blur();
  }
}
