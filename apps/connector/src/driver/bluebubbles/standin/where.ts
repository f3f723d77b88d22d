/**
 * The `where` of BlueBubbles' message query, for the stand-in: each item's `statement` is SQL
 * that MessageRepository.getMessages hands to TypeORM's `andWhere` with its `args` (named
 * `:params`). The stand-in evaluates the subset its callers use: comparisons of `message.<column>`
 * with a number, a quoted string or a parameter, joined by AND / OR, in parentheses. Anything else
 * is an error, as SQLite's would be for a statement it cannot run.
 */
export interface WhereItem {
  statement: string;
  args: Record<string, unknown> | null;
}

type Value = string | number | null;
const TOKEN = /\s*(\(|\)|!=|<>|>=|<=|=|>|<|:[A-Za-z_]\w*|'(?:[^']|'')*'|-?\d+(?:\.\d+)?|[A-Za-z_][\w.]*)/y;

function tokens(statement: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < statement.length) {
    if (/^\s*$/.test(statement.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(statement);
    if (!match) throw new Error(`SQLITE_ERROR: near "${statement.slice(at).trim().slice(0, 20)}": syntax error`);
    out.push(match[1]!);
  }
  return out;
}

/** Whether a row (its columns by name) meets one `where` item. */
export function matchesWhere(item: WhereItem, columns: Record<string, Value>): boolean {
  const list = tokens(item.statement);
  let i = 0;
  const peek = () => list[i]?.toUpperCase();
  const value = (token: string | undefined): Value => {
    if (token === undefined) throw new Error('SQLITE_ERROR: incomplete input');
    if (/^[()=<>!]/.test(token)) throw new Error(`SQLITE_ERROR: near "${token}": syntax error`);
    if (token.startsWith(':')) {
      const name = token.slice(1);
      if (!item.args || !(name in item.args)) throw new Error(`missing parameter "${name}"`);
      const v = item.args[name];
      return typeof v === 'number' || typeof v === 'string' ? v : v === true ? 1 : v === false ? 0 : null;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replaceAll("''", "'");
    if (/^-?\d/.test(token)) return Number(token);
    const column = token.replace(/^message\./, '');
    if (!(column in columns)) throw new Error(`SQLITE_ERROR: no such column: ${token}`);
    return columns[column]!;
  };
  const comparison = (): boolean => {
    if (peek() === '(') {
      i++;
      const inner = or();
      if (list[i++] !== ')') throw new Error('SQLITE_ERROR: near ")": syntax error');
      return inner;
    }
    const left = value(list[i++]);
    const op = list[i++];
    const right = value(list[i++]);
    if (left === null || right === null) return false;
    switch (op) {
      case '=': return left === right || String(left) === String(right);
      case '!=': case '<>': return String(left) !== String(right);
      case '>': return left > right;
      case '>=': return left >= right;
      case '<': return left < right;
      case '<=': return left <= right;
      default: throw new Error(`SQLITE_ERROR: near "${op}": syntax error`);
    }
  };
  const and = (): boolean => {
    let result = comparison();
    while (peek() === 'AND') {
      i++;
      result = comparison() && result;
    }
    return result;
  };
  const or = (): boolean => {
    let result = and();
    while (peek() === 'OR') {
      i++;
      result = and() || result;
    }
    return result;
  };
  const result = or();
  if (i !== list.length) throw new Error(`SQLITE_ERROR: near "${list[i]}": syntax error`);
  return result;
}
