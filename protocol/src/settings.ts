import { type ZodType, z } from 'zod';

/**
 * One setting of a command: the environment variable (and, for a CLI, the `--flag`) that sets it,
 * the schema that validates it (with its default), and one line of help. A table of these is the
 * one place a command's settings are described: schema, variable names, types and help derive from it.
 */
export interface Setting<S extends ZodType = ZodType> {
  env: string;
  schema: S;
  help: string;
  flag?: string;
}

export type SettingsTable = Record<string, Setting>;

/** The schema of a whole table, by setting name: `z.input` of it is what code passes, `z.output` what it gets. */
export function settingsSchema<T extends SettingsTable>(table: T) {
  const shape = Object.fromEntries(Object.entries(table).map(([name, s]) => [name, s.schema]));
  return z.strictObject(shape as { [K in keyof T]: T[K]['schema'] });
}

/** A value that stops start-up; its message names the variable or flag. */
export class SettingsError extends Error {}

/**
 * Validates settings given by name; a bad value throws a `SettingsError` naming it by `name` (the
 * setting's variable by default), every problem on a line of its own.
 */
export function parseSettings<T extends SettingsTable>(
  table: T,
  values: Record<string, unknown>,
  name: (setting: string) => string = (setting) => table[setting]?.env ?? setting,
): z.output<ReturnType<typeof settingsSchema<T>>> {
  const parsed = settingsSchema(table).safeParse(values);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    if (i.code === 'unrecognized_keys') return `unknown setting ${i.keys.join(', ')}`;
    return i.path.length ? `${name(String(i.path[0]))}: ${i.message}` : i.message;
  });
  throw new SettingsError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
}

export interface ReadOptions {
  env: Record<string, string | undefined>;
  /** Command-line arguments (`--flag value` or `--flag=value`): a flag wins over its variable. */
  argv?: string[];
  /** Variables starting with this that no setting names are refused (a typo must not pass silently). */
  prefix?: string;
  /** Variables of other tools that share the prefix. */
  ignore?: RegExp;
}

/**
 * Reads a table's settings from the environment and flags, then validates them: what is set to an
 * empty string counts as unset (the shell idiom `VAR= command`); an unknown flag or variable is refused.
 */
export function readSettings<T extends SettingsTable>(table: T, options: ReadOptions) {
  const values: Record<string, unknown> = {};
  const source = new Map<string, string>();
  const byEnv = new Map(Object.entries(table).map(([name, s]) => [s.env, name]));
  const unknown = Object.keys(options.env).filter(
    (k) =>
      options.prefix &&
      k.startsWith(options.prefix) &&
      options.env[k] &&
      !byEnv.has(k) &&
      !options.ignore?.test(k),
  );
  if (unknown.length) {
    const known = [...byEnv.keys()];
    const lines = unknown.map((k) => {
      const near = known.find((name) => editDistance(k, name) <= 2);
      return `${k}: unknown variable${near ? ` (did you mean ${near}?)` : ''}`;
    });
    throw new SettingsError(
      `Invalid configuration:\n  ${lines.join('\n  ')}\n` +
        `Every ${options.prefix}… variable must be a setting (see --help): rename or unset ${unknown.length > 1 ? 'these' : 'it'}.`,
    );
  }
  for (const [name, s] of Object.entries(table)) {
    const value = options.env[s.env];
    if (value !== undefined && value !== '') values[name] = value;
  }
  const byFlag = new Map(Object.entries(table).flatMap(([name, s]) => (s.flag ? [[s.flag, name]] : [])));
  const args = options.argv ?? [];
  for (let i = 0; i < args.length; i++) {
    const m = /^--([\w-]+)(?:=(.*))?$/.exec(args[i] as string);
    const name = m && byFlag.get(m[1] as string);
    if (!m || !name) throw new SettingsError(`Unknown argument ${args[i]} (see --help)`);
    const value = m[2] ?? args[++i];
    if (value === undefined) throw new SettingsError(`--${m[1]}: needs a value`);
    values[name] = value;
    source.set(name, `--${m[1]}`);
  }
  return parseSettings(table, values, (name) => source.get(name) ?? table[name]?.env ?? name);
}

/** How many one-letter edits (insert, delete, change) make `a` into `b`: for "did you mean". */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] as number;
}

/** A setting's default as help shows it, or '' when it has none worth showing. */
function defaultOf(schema: ZodType): string {
  const parsed = schema.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined || parsed.data === false) return '';
  if (Array.isArray(parsed.data) && parsed.data.length === 0) return '';
  return parsed.data === true ? 'on' : String(parsed.data);
}

/** The help of a table: a line per setting, `VARIABLE (--flag)  what it does (default …)`, wrapped at `width`. */
export function settingsHelp(table: SettingsTable, width = 100): string {
  const rows = Object.values(table).map((s) => {
    const def = defaultOf(s.schema);
    return {
      name: s.flag ? `--${s.flag}, ${s.env}` : s.env,
      text: def ? `${s.help} (default ${def})` : s.help,
    };
  });
  const column = Math.min(32, Math.max(...rows.map((r) => r.name.length)) + 2);
  const lines: string[] = [];
  for (const { name, text } of rows) {
    let line = `  ${name.padEnd(column)}`;
    if (name.length >= column) {
      lines.push(`  ${name}`);
      line = ' '.repeat(column + 2);
    }
    for (const word of text.split(' ')) {
      if (line.length + word.length + 1 > width && line.trim()) {
        lines.push(line.trimEnd());
        line = ' '.repeat(column + 2);
      }
      line += `${word} `;
    }
    lines.push(line.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}
