// Elements are built with h(): text always goes in as text nodes, never as HTML, so names a model
// wrote or ids a game chose cannot inject markup.

export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | Handler | null | undefined>;

/** Properties set as such (not as attributes): what a form control holds. */
const PROPERTIES = new Set(['value', 'checked', 'disabled', 'selected']);

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (PROPERTIES.has(name)) (el as unknown as Record<string, unknown>)[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `parent` shows. */
export function show(parent: Element, ...children: Child[]) {
  parent.replaceChildren();
  append(parent, children);
}

const SVG = 'http://www.w3.org/2000/svg';
export function svg(tag: string, attrs: Record<string, string | number>, ...children: Node[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  for (const child of children) el.appendChild(child);
  return el;
}

/** A labelled form field: the label wraps its control, so both read as one to a screen reader. */
export const field = (label: string, control: HTMLElement, hint?: string) =>
  h(
    'label',
    { class: 'field' },
    h('span', { class: 'field-label' }, label),
    control,
    hint && h('small', {}, hint),
  );

export const select = (name: string, options: Array<[string, string]>, value = '') =>
  h(
    'select',
    { name },
    options.map(([v, text]) => h('option', { value: v, selected: v === value }, text)),
  );

export const table = (headers: string[], rows: Child[][], empty = 'Nothing yet.') =>
  rows.length
    ? h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              headers.map((t) => h('th', { scope: 'col' }, t)),
            ),
          ),
          h(
            'tbody',
            {},
            rows.map((cells) =>
              h(
                'tr',
                {},
                cells.map((c) => h('td', {}, c)),
              ),
            ),
          ),
        ),
      )
    : h('p', { class: 'empty' }, empty);
