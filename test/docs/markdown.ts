// Just enough Markdown for the README tests: fenced code blocks, links and GitHub's heading anchors.

export interface CodeBlock {
  lang: string;
  code: string;
  /** The heading the block sits under. */
  heading: string;
}

const FENCE = /^( *)```(\w*)\n([\s\S]*?)^\1```$/gm;

/** Every fenced block, indented ones (in list items) too, with the indentation taken off. */
export function codeBlocksOf(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const [, indent = '', lang = '', body = ''] = match;
    const before = markdown.slice(0, match.index);
    const heading = [...before.matchAll(/^#{1,6} (.+)$/gm)].at(-1)?.[1] ?? '';
    const code = body
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    blocks.push({ lang, code, heading });
  }
  return blocks;
}

/** The prose: code blocks and inline code taken out. */
const proseOf = (markdown: string) => markdown.replace(FENCE, '').replace(/`[^`\n]*`/g, '');

/** The targets of `[text](target)` links in the prose. */
export const linksOf = (markdown: string): string[] =>
  [...proseOf(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);

/** The anchors GitHub gives the headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, text = ''] of markdown.replace(FENCE, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}
