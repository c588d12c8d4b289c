type Child = Node | string | false | null | undefined;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** A small element builder: `h('button', { class: 'btn', onclick: go }, 'Go')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (name === 'class') element.className = String(value);
    // Through the CSSOM: a Content-Security-Policy without 'unsafe-inline' refuses style attributes.
    else if (name === 'style') element.style.cssText = String(value);
    else if (name in element && typeof value !== 'string') Reflect.set(element, name, value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((c): c is Node | string => c !== false && c !== null && c !== undefined));
  return element;
}

/** Replaces an element's children. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren(
    ...children.filter((c): c is Node | string => c !== false && c !== null && c !== undefined),
  );
}

/**
 * Fills a panel's result area and, when it starts low on the screen or below it (on a phone, under
 * the form and the kept-in-view button), scrolls its top up into view.
 */
export function showResult(element: Element, ...children: Child[]): void {
  fill(element, ...children);
  if (element.getBoundingClientRect().top > window.innerHeight * 0.55)
    element.scrollIntoView({ block: 'start' });
}

/** True while the player types into a form field, so game keys leave the keyboard alone. */
export function typing(): boolean {
  const active = document.activeElement;
  return (
    active instanceof HTMLInputElement ||
    active instanceof HTMLTextAreaElement ||
    active instanceof HTMLSelectElement
  );
}
