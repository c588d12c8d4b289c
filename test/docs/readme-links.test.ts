// The README of each published package is read on npmjs.com and in node_modules, where nothing of
// the repository is around it: its links are absolute, and those into this repository name a file
// (and a heading) that exists here.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, linksOf } from './markdown.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const PACKAGES = ['protocol', 'engine', 'server', 'plugin'];
const manifests = PACKAGES.map(
  (dir) =>
    JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as {
      name: string;
      repository: { url: string };
    },
);
const names = new Set(manifests.map((m) => m.name));
const repository = (manifests[0]?.repository.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
const BLOB = `${repository}/blob/main/`;
const NPM = 'https://www.npmjs.com/package/';

/** Why a link would not resolve for a reader of `readme`, or undefined when it does. */
function brokenLink(readme: string, link: string): string | undefined {
  const [target = '', anchor] = link.split('#');
  if (!target) return anchorsOf(readme).has(anchor ?? '') ? undefined : 'no such heading here';
  if (link === `${repository}#readme`) return undefined;
  if (target.startsWith(BLOB)) {
    const path = join(ROOT, target.slice(BLOB.length));
    if (!existsSync(path)) return 'no such file in the repository';
    if (anchor && !anchorsOf(readFileSync(path, 'utf8')).has(anchor)) return 'no such heading in that file';
    return undefined;
  }
  if (target.startsWith(NPM))
    return names.has(target.slice(NPM.length)) ? undefined : 'not one of our packages';
  if (target.startsWith(repository)) return `a link into the repository goes through ${BLOB}`;
  return /^https:\/\//.test(target) ? undefined : 'relative: broken on npmjs.com and in node_modules';
}

describe('links in the published READMEs', () => {
  it('all name the one repository', () => {
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w-]+\/[\w-]+$/);
    for (const m of manifests) expect(m.repository.url).toBe(manifests[0]?.repository.url);
  });

  it.each(PACKAGES)('%s/README.md: every link resolves outside the repository', (dir) => {
    const readme = readFileSync(join(ROOT, dir, 'README.md'), 'utf8');
    const links = linksOf(readme);
    expect(links.map((link) => [link, brokenLink(readme, link)]).filter(([, why]) => why)).toEqual([]);
  });

  it.each(['README.md', 'CONTRIBUTING.md'])(
    '%s: every link into the repository names a file (and heading) here',
    (file) => {
      const page = readFileSync(join(ROOT, file), 'utf8');
      const broken = linksOf(page)
        .filter((link) => !/^https?:\/\//.test(link))
        .map((link) => [link, brokenLink(page, link.startsWith('#') ? link : BLOB + link)])
        .filter(([, why]) => why);
      expect(broken).toEqual([]);
    },
  );

  it('tells a broken link from a good one', () => {
    const readme = '# Title\n\n## Loot pools: instant drops\n';
    expect(brokenLink(readme, '../docs/DEPLOY.md')).toMatch(/relative/);
    expect(brokenLink(readme, `${BLOB}docs/NOPE.md`)).toMatch(/no such file/);
    expect(brokenLink(readme, `${BLOB}docs/DEPLOY.md#nope`)).toMatch(/no such heading/);
    expect(brokenLink(readme, `${NPM}left-pad`)).toMatch(/not one of our packages/);
    expect(brokenLink(readme, '#loot-pools-instant-drops')).toBeUndefined();
    expect(brokenLink(readme, `${BLOB}docs/DEPLOY.md`)).toBeUndefined();
  });
});
