/**
 * A statement of the stores, written once for SQLite and PostgreSQL. Parameters are `$name`
 * (lower case; SQLite binds them by position, PostgreSQL's text is compiled to `$1…$n` once);
 * `Row` is what one row of the statement holds.
 */
export interface Statement<Row = unknown> {
  text: string;
  /**
   * Conditions put in place of `{where}` (as `WHERE a AND b…`), each only when the parameter it is
   * listed under is given (not null or undefined): one compiled statement per set of them, so each
   * list query keeps the plan of its own index.
   */
  filters?: Record<string, string>;
  /** Never set: carries the row type. */
  readonly row?: Row;
}

export const sql = <Row = never>(text: string): Statement<Row> => ({ text });

export const filtered = <Row>(text: string, filters: Record<string, string>): Statement<Row> => ({
  text,
  filters,
});

/** The few words in which the two databases' SQL differs. */
export interface SqlDialect {
  /** Row locks held to the end of the transaction; SQLite's write transaction holds the whole file. */
  forUpdate: string;
  /** The same, passing over rows another transaction holds. */
  skipLocked: string;
  /** `column IN list` for a parameter holding an array. */
  inList(param: string): string;
  /** `column NOT IN list` for a parameter holding an array. */
  notInList(param: string): string;
  /** The function building a JSON object from key, value pairs. */
  jsonObject: string;
  /** A JSON array (as text) of `value` over the rows, in `order`; `[]` when there are none. */
  jsonArray(value: string, order: string): string;
  /**
   * `column` starts with `$prefix`, on an index: a range of it on SQLite (bytewise, `$prefix_end` its
   * end), a `LIKE $prefix_pattern` on PostgreSQL (whose collation may not order a prefix's ids together;
   * `prefixParams` gives all three).
   */
  startsWith(column: string): string;
  /** `text` holds the text of `param`. */
  contains(text: string, param: string): string;
  /** The rows of `columns` of `table` from `param`, a JSON array (as text) of objects keyed by column. */
  rowsOf(table: string, columns: string[], param: string): string;
}

/** The parameters of `SqlDialect.startsWith`. */
export const prefixParams = (prefix: string) => ({
  prefix,
  prefix_end: `${prefix}\uffff`,
  prefix_pattern: `${prefix.replace(/[!%_]/g, '!$&')}%`,
});
