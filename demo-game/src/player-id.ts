const STORAGE_KEY = 'lootsmith-demo:player';

/** This browser's guest player id, kept in localStorage so a reload is the same player. */
export function playerId(): string {
  const known = localStorage.getItem(STORAGE_KEY);
  if (known) return known;
  const id = `hero-${crypto.randomUUID().slice(0, 8)}`;
  localStorage.setItem(STORAGE_KEY, id);
  return id;
}

/** Forgets this browser's player and hero progress, so the next load starts a new hero. */
export function forgetPlayer() {
  for (const key of Object.keys(localStorage))
    if (key.startsWith('lootsmith-demo:')) localStorage.removeItem(key);
}
