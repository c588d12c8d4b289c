import type { ConsoleSession } from '@lootsmith/protocol';
import { ApiFailure, api, onSignedOut, setCsrf } from './api.ts';
import { h, show } from './dom.ts';
import { gameState } from './game.ts';
import { itemPage, itemsPage } from './pages/items.ts';
import { moderationPage } from './pages/moderation.ts';
import { overviewPage } from './pages/overview.ts';
import { playerPage, playersPage } from './pages/players.ts';
import { playgroundPage } from './pages/playground.ts';
import { requestPage, requestsPage } from './pages/requests.ts';

/** A page draws itself into `view` from the path after `#/` and its query. */
export type Page = (view: HTMLElement, path: string[], params: URLSearchParams) => Promise<void>;

const PAGES: Array<[string, string, Page, Page?]> = [
  ['overview', 'Overview', overviewPage],
  ['players', 'Players', playersPage, playerPage],
  ['items', 'Items', itemsPage, itemPage],
  ['requests', 'Requests', requestsPage, requestPage],
  ['playground', 'Playground', playgroundPage],
  ['moderation', 'Moderation', moderationPage],
];

const root = document.getElementById('app') as HTMLElement;

function signInForm(session: ConsoleSession, notice?: string) {
  setCsrf(undefined);
  const open = session.mode === 'open';
  const credential = h('input', {
    type: 'password',
    name: 'credential',
    autocomplete: 'current-password',
    required: !open,
    'aria-label': 'Console password or server key',
    placeholder: 'LOOTSMITH_CONSOLE_PASSWORD or LOOTSMITH_SERVER_KEY',
  });
  const error = h('p', { class: 'error', role: 'alert' }, notice ?? '');
  const form = h(
    'form',
    { class: 'sign-in card' },
    h('h1', {}, 'Lootsmith console'),
    open
      ? h('p', {}, 'This development server has no console password: this machine may sign in without one.')
      : [
          // For password managers: the console has one account.
          h('input', {
            type: 'text',
            name: 'username',
            autocomplete: 'username',
            value: 'lootsmith-console',
            hidden: true,
          }),
          h('label', { class: 'field' }, h('span', { class: 'field-label' }, 'Password'), credential),
        ],
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    try {
      const opened = await api<ConsoleSession>('POST', '/api/v1/admin/session', {
        credential: credential.value,
      });
      credential.value = '';
      enter(opened);
    } catch (err) {
      error.textContent = (err as Error).message;
    }
  });
  show(root, h('main', { class: 'centered' }, form));
  if (!open) credential.focus();
}

function enter(session: ConsoleSession) {
  setCsrf(session.csrf_token);
  const nav = h(
    'nav',
    { 'aria-label': 'Console' },
    PAGES.map(([id, title]) => h('a', { href: `#/${id}`, class: 'nav-link', 'data-page': id }, title)),
  );
  const signOut = h('button', { type: 'button', class: 'quiet' }, 'Sign out');
  signOut.addEventListener('click', async () => {
    await api('DELETE', '/api/v1/admin/session').catch(() => {});
    start();
  });
  const main = h('main', { id: 'content' });
  show(
    root,
    h('header', { class: 'top' }, h('a', { class: 'brand', href: '#/overview' }, 'Lootsmith'), nav, signOut),
    main,
  );
  const route = async () => {
    const [path = '', search = ''] = location.hash.replace(/^#\/?/, '').split('?');
    const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
    const found = PAGES.find(([id]) => id === parts[0]);
    if (!found) {
      location.hash = '#/overview';
      return;
    }
    for (const a of nav.querySelectorAll('a')) a.classList.toggle('active', a.dataset.page === found[0]);
    const [, title, list, detail] = found;
    const page = parts.length > 1 && detail ? detail : list;
    document.title = `${title} · Lootsmith console`;
    // A page drawn for a route already left draws into a view no longer shown.
    const view = h('div', { class: 'view' });
    show(main, view);
    try {
      // Every page colours items by the loaded game's rarities.
      await gameState();
      await page(view, parts.slice(1), new URLSearchParams(search));
    } catch (err) {
      if (err instanceof ApiFailure && err.status === 401) return;
      show(view, h('p', { class: 'error', role: 'alert' }, (err as Error).message));
    }
  };
  window.onhashchange = route;
  void route();
}

async function start() {
  window.onhashchange = null;
  try {
    const session = await api<ConsoleSession>('GET', '/api/v1/admin/session');
    if (session.signed_in) enter(session);
    else signInForm(session);
  } catch (err) {
    const message =
      err instanceof ApiFailure && err.code === 'console_disabled'
        ? err.message
        : `The server did not answer: ${(err as Error).message}`;
    show(
      root,
      h(
        'main',
        { class: 'centered' },
        h('div', { class: 'card' }, h('h1', {}, 'Lootsmith console'), h('p', {}, message)),
      ),
    );
  }
}

onSignedOut(() => {
  void api<ConsoleSession>('GET', '/api/v1/admin/session').then(
    (s) => signInForm(s, 'Your session has ended; sign in again.'),
    () => start(),
  );
});
void start();
