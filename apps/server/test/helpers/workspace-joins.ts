import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../src/db/schema/index.ts';

/**
 * Whether every join between two workspace tables in a statement carries the workspace, as a
 * database sharded by workspace needs to run it on one node: `join product_variants v on
 * v.product_id = p.id and v.workspace_id = p.workspace_id`. A statement is read the way the
 * server writes them (Drizzle's quoted names, the features' own `sql` templates), not parsed in
 * full: enough of PostgreSQL's grammar to know each query level's tables, aliases, join
 * conditions and where clause.
 *
 * The rules, for each workspace table (one with a `workspace_id` column) a statement reads:
 * - joined (`join … on`) to another workspace table, or correlated with one from a subquery
 *   (`exists (select 1 from memberships where memberships.role_id = roles.id)`), its condition
 *   has `<it>.workspace_id = <other>.workspace_id`;
 * - joined to, or in a subquery or common table expression of, anything else (a recursive walk's
 *   rows, a lateral `unnest`), its condition names its `workspace_id` in an equality.
 * The first table of the statement's own level is not checked: a statement over every workspace
 * (the subscription clock's scan) is allowed, and what it joins is still checked.
 */

/** The tables with a `workspace_id` column, by their SQL name. */
export function workspaceTableNames(): Set<string> {
  const names = new Set<string>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    if (config.columns.some((column) => column.name === 'workspace_id')) names.add(config.name);
  }
  return names;
}

interface Token {
  kind: 'word' | 'ident' | 'param' | 'literal' | 'op' | 'comma' | 'dot' | 'other';
  /** Words lower-cased, quoted identifiers unquoted. */
  text: string;
}
interface Group {
  kind: 'group';
  items: Item[];
}
type Item = Token | Group;

const isGroup = (item: Item | undefined): item is Group => item?.kind === 'group';
const textOf = (item: Item | undefined) => (item as Token | undefined)?.text ?? '';
// Plain booleans, not type guards: a token that is not the word asked for is still a token.
const isWord = (item: Item | undefined, ...words: string[]): boolean =>
  item !== undefined && item.kind === 'word' && (words.length === 0 || words.includes(item.text));
const isName = (item: Item | undefined): boolean =>
  item !== undefined &&
  (item.kind === 'ident' || (item.kind === 'word' && !keywords.has((item as Token).text)));

/** Words that end or separate the parts of a query level, never a table's alias. */
const keywords = new Set(
  `select from where group having order limit offset for window returning union intersect except
  join inner left right full cross natural outer lateral on using as with recursive set values
  insert update delete into do conflict and or not is null in exists between like ilike case when
  then else end distinct all any some by asc desc nulls first last materialized fetch only`.split(/\s+/),
);
const clauseEnds = new Set([
  'where',
  'group',
  'having',
  'order',
  'limit',
  'offset',
  'for',
  'window',
  'returning',
  'union',
  'intersect',
  'except',
  'set',
  'on',
  'do',
  'fetch',
]);
const joinWords = new Set(['join', 'inner', 'left', 'right', 'full', 'cross', 'natural', 'outer']);

/** Each token's pattern, tried in order; `undefined`: skipped (spaces, comments). */
const tokenPatterns: [RegExp, Token['kind'] | undefined][] = [
  [/^(\s+|--[^\n]*|\/\*[\s\S]*?\*\/)/, undefined],
  [/^[Ee]?'(?:[^']|'')*'/, 'literal'],
  [/^"(?:[^"]|"")*"/, 'ident'],
  [/^\$\d+/, 'param'],
  [/^\d+(\.\d+)?/, 'literal'],
  [/^[A-Za-z_][A-Za-z0-9_$]*/, 'word'],
  [/^(::|[=<>!~+\-*/%|&^#@?]+)/, 'op'],
  [/^,/, 'comma'],
  [/^\./, 'dot'],
  [/^./, 'other'],
];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let rest = text;
  while (rest.length > 0) {
    for (const [pattern, kind] of tokenPatterns) {
      const match = pattern.exec(rest);
      if (!match) continue;
      const [found] = match;
      if (kind === 'ident') tokens.push({ kind, text: found.slice(1, -1).replaceAll('""', '"') });
      else if (kind === 'word') tokens.push({ kind, text: found.toLowerCase() });
      else if (kind) tokens.push({ kind, text: found });
      rest = rest.slice(found.length);
      break;
    }
  }
  return tokens;
}

/** Parentheses as nested groups (brackets stay tokens). */
function nest(tokens: Token[]): Item[] {
  const stack: Item[][] = [[]];
  for (const token of tokens) {
    if (token.text === '(') stack.push([]);
    else if (token.text === ')' && stack.length > 1) {
      const items = stack.pop()!;
      stack.at(-1)!.push({ kind: 'group', items });
    } else stack.at(-1)!.push(token);
  }
  return stack[0]!;
}

const startsQuery = (items: Item[]) => isWord(items[0], 'select', 'with', 'insert', 'update', 'delete');

interface Relation {
  /** The table's name, or undefined for a subquery, a function's rows or a common table expression. */
  table: string | undefined;
  alias: string;
  /** How it came in: the level's first, a later item of its FROM list, or a join. */
  via: 'first' | 'comma' | 'join';
  on: Item[];
}

/** One SELECT (or UPDATE, DELETE) level: its relations and where clause, within its enclosing levels. */
interface Level {
  relations: Relation[];
  where: Item[];
  parent: Level | undefined;
  /** The common table expressions this level and those inside it may name. */
  ctes: Set<string>;
  nested: boolean;
}

interface ColumnRef {
  qualifier: string | undefined;
  column: string;
}
type Operand = ColumnRef | { value: true } | undefined;

/** A problem found: the table, and what its condition lacks. */
export interface JoinProblem {
  table: string;
  alias: string;
  message: string;
}

/**
 * What the statement's joins and subqueries lack (the rules above). With `firstTables`, also each
 * statement's first table read without a workspace: what runs on every node of a sharded database.
 */
export function workspaceJoinProblems(
  statement: string,
  workspaceTables: ReadonlySet<string>,
  { firstTables = false }: { firstTables?: boolean } = {},
): JoinProblem[] {
  const problems: JoinProblem[] = [];
  const levels: Level[] = [];

  function splitTop(items: Item[], words: string[]): Item[][] {
    const parts: Item[][] = [[]];
    for (const item of items) {
      if (isWord(item, ...words)) parts.push([]);
      else parts.at(-1)!.push(item);
    }
    return parts;
  }

  /** Analyzes the subqueries found anywhere in `items` (not themselves a level's FROM). */
  function expressions(items: Item[], level: Level | undefined, ctes: Set<string>) {
    for (const item of items) {
      if (!isGroup(item)) continue;
      if (startsQuery(item.items)) query(item.items, level, ctes, true);
      else expressions(item.items, level, ctes);
    }
  }

  function query(items: Item[], parent: Level | undefined, inherited: Set<string>, nested: boolean) {
    const ctes = new Set(inherited);
    let i = 0;
    if (isWord(items[0], 'with')) {
      i = 1;
      if (isWord(items[i], 'recursive')) i++;
      // name [(columns)] as [not] [materialized] (query) [, …]
      const bodies: Item[][] = [];
      while (i < items.length) {
        const name = items[i];
        if (!isName(name)) break;
        ctes.add(textOf(name));
        i++;
        if (isGroup(items[i])) i++;
        if (isWord(items[i], 'as')) i++;
        while (isWord(items[i], 'not', 'materialized')) i++;
        const body = items[i];
        if (isGroup(body)) bodies.push(body.items);
        i++;
        if (items[i]?.kind === 'comma') i++;
        else break;
      }
      for (const body of bodies) query(body, parent, ctes, true);
    }
    const rest = items.slice(i);
    if (isWord(rest[0], 'insert')) {
      // insert into t (columns) select … | values … [on conflict …]: only a select reads tables.
      const select = rest.findIndex((item) => isWord(item, 'select'));
      if (select >= 0) query(rest.slice(select), parent, ctes, nested);
      expressions(rest, parent, ctes);
      return;
    }
    for (const part of splitTop(rest, ['union', 'intersect', 'except'])) {
      const body = part.filter((item) => !isWord(item, 'all', 'distinct') || part.indexOf(item) > 0);
      if (body.length > 0) level(body, parent, ctes, nested);
    }
  }

  /** One level: `select … from …`, `update t … from …`, `delete from t using …`. */
  function level(items: Item[], parent: Level | undefined, ctes: Set<string>, nested: boolean) {
    if (isGroup(items[0]) && items.length === 1) {
      query(items[0].items, parent, ctes, nested);
      return;
    }
    const current: Level = { relations: [], where: [], parent, ctes, nested };
    levels.push(current);
    const subqueries: [Item[], Level][] = [];
    let i = 0;
    const fromList = (kind: Relation['via']) => {
      let via = kind;
      while (i < items.length) {
        const item = items[i]!;
        if (item.kind === 'comma') {
          via = 'comma';
          i++;
          continue;
        }
        if (isWord(item) && joinWords.has(textOf(item))) {
          if (textOf(item) === 'join') via = 'join';
          i++;
          continue;
        }
        if (isWord(item, 'lateral', 'only')) {
          i++;
          continue;
        }
        if (isWord(item) && clauseEnds.has(textOf(item))) return;
        let table: string | undefined;
        let alias: string | undefined;
        if (isGroup(item)) {
          if (startsQuery(item.items)) subqueries.push([item.items, current]);
          i++;
        } else if (isName(item)) {
          let name = item.text;
          i++;
          while (items[i]?.kind === 'dot' && isName(items[i + 1])) {
            name = (items[i + 1] as Token).text;
            i += 2;
          }
          if (isGroup(items[i])) {
            // A function's rows: its arguments may name the level's tables (lateral).
            expressions([items[i]!], current, ctes);
            i++;
            if (isWord(items[i], 'with') && isWord(items[i + 1], 'ordinality')) i += 2;
          } else {
            alias = name;
            if (workspaceTables.has(name) && !ctes.has(name)) table = name;
          }
        } else {
          i++;
          continue;
        }
        if (isWord(items[i], 'as')) i++;
        if (isName(items[i])) {
          alias = (items[i] as Token).text;
          i++;
        }
        if (isGroup(items[i])) i++; // column names of the alias
        const on: Item[] = [];
        if (isWord(items[i], 'on')) {
          i++;
          while (
            i < items.length &&
            items[i]!.kind !== 'comma' &&
            !(
              isWord(items[i]) &&
              (joinWords.has((items[i] as Token).text) ||
                (clauseEnds.has((items[i] as Token).text) && (items[i] as Token).text !== 'on'))
            )
          ) {
            on.push(items[i]!);
            i++;
          }
          expressions(on, current, ctes);
        } else if (isWord(items[i], 'using')) {
          i += 2;
        }
        current.relations.push({
          table,
          alias: alias ?? '',
          via: current.relations.length === 0 ? 'first' : via,
          on,
        });
        via = 'comma';
      }
    };
    while (i < items.length) {
      const item = items[i]!;
      if (isWord(item, 'from') || isWord(item, 'using')) {
        i++;
        fromList(current.relations.length === 0 ? 'first' : 'comma');
      } else if (isWord(item, 'update') && current.relations.length === 0) {
        i++;
        fromList('first');
      } else if (isWord(item, 'where')) {
        i++;
        while (
          i < items.length &&
          !isWord(items[i], 'group', 'having', 'order', 'limit', 'offset', 'for', 'window', 'returning')
        ) {
          current.where.push(items[i]!);
          i++;
        }
      } else {
        if (isGroup(item)) {
          if (startsQuery(item.items)) subqueries.push([item.items, current]);
          else expressions(item.items, current, ctes);
        }
        i++;
      }
    }
    expressions(current.where, current, ctes);
    for (const [sub, at] of subqueries) query(sub, at, ctes, true);
  }

  /** Column references and equalities of a condition, through its parentheses but not its subqueries. */
  function conditionParts(items: Item[]) {
    const columns: ColumnRef[] = [];
    const equalities: [Operand, Operand][] = [];
    const visit = (list: Item[]) => {
      const operandEndingAt = (end: number): Operand => {
        let j = end;
        if (j >= 1 && isWord(list[j]) && list[j - 1]?.kind === 'op' && (list[j - 1] as Token).text === '::')
          j -= 2;
        const last = list[j];
        if (!last) return undefined;
        if (last.kind === 'param' || last.kind === 'literal') return { value: true };
        if (!isName(last) && !(isWord(last) && textOf(last) === 'workspace_id')) return undefined;
        if (list[j - 1]?.kind === 'dot' && isName(list[j - 2])) {
          return { qualifier: (list[j - 2] as Token).text, column: textOf(last) };
        }
        return { qualifier: undefined, column: textOf(last) };
      };
      const operandStartingAt = (start: number): Operand => {
        const first = list[start];
        if (!first) return undefined;
        if (first.kind === 'param' || first.kind === 'literal') return { value: true };
        if (!isName(first)) return undefined;
        if (list[start + 1]?.kind === 'dot' && isName(list[start + 2])) {
          return { qualifier: textOf(first), column: (list[start + 2] as Token).text };
        }
        return { qualifier: undefined, column: textOf(first) };
      };
      list.forEach((item, index) => {
        if (isGroup(item)) {
          if (!startsQuery(item.items)) visit(item.items);
          return;
        }
        if (item.kind === 'dot' && isName(list[index - 1]) && isName(list[index + 1])) {
          if (list[index + 2]?.kind !== 'dot' && list[index - 2]?.kind !== 'dot') {
            columns.push({
              qualifier: (list[index - 1] as Token).text,
              column: (list[index + 1] as Token).text,
            });
          }
        }
        if (item.kind === 'op' && item.text === '=') {
          equalities.push([operandEndingAt(index - 1), operandStartingAt(index + 1)]);
        }
      });
    };
    visit(items);
    return { columns, equalities };
  }

  const tokens = nest(tokenize(statement));
  if (startsQuery(tokens)) query(tokens, undefined, new Set(), false);

  /** The relation an alias names, from this level out. */
  function resolve(at: Level, qualifier: string | undefined, column: string): Relation | undefined {
    for (let current: Level | undefined = at; current; current = current.parent) {
      if (qualifier === undefined) {
        if (column !== 'workspace_id') return undefined;
        const own = current.relations.filter((relation) => relation.table !== undefined);
        if (own.length >= 1) return own[0];
        continue;
      }
      const found = current.relations.find((relation) => relation.alias === qualifier);
      if (found) return found;
    }
    return undefined;
  }

  for (const at of levels) {
    for (const relation of at.relations) {
      if (!relation.table) continue;
      if (relation.via === 'first' && !at.nested && !firstTables) continue;
      // A join's own condition. For the level's other tables, the tables its where clause names
      // (a join's condition is checked with the joined table), and the equalities there or in the
      // join conditions (`from categories child join tree on … and child.workspace_id = $1`).
      const { columns } = conditionParts(relation.via === 'join' ? relation.on : at.where);
      const { equalities } = conditionParts(
        relation.via === 'join' ? relation.on : [...at.where, ...at.relations.flatMap((joined) => joined.on)],
      );
      const others = new Set<Relation>();
      for (const column of columns) {
        const other = resolve(at, column.qualifier, column.column);
        if (other && other !== relation) others.add(other);
      }
      const isOwnWorkspace = (operand: Operand) =>
        operand !== undefined &&
        'column' in operand &&
        operand.column === 'workspace_id' &&
        resolve(at, operand.qualifier, operand.column) === relation;
      const workspaceOf = (operand: Operand, other: Relation) =>
        operand !== undefined &&
        'column' in operand &&
        operand.column === 'workspace_id' &&
        resolve(at, operand.qualifier, operand.column) === other;
      const name = relation.alias === relation.table ? relation.table : `${relation.table} ${relation.alias}`;
      const joinedTables = [...others].filter((other) => other.table !== undefined);
      for (const other of joinedTables) {
        const carried = equalities.some(
          ([left, right]) =>
            (isOwnWorkspace(left) && workspaceOf(right, other)) ||
            (isOwnWorkspace(right) && workspaceOf(left, other)),
        );
        if (!carried) {
          problems.push({
            table: relation.table,
            alias: relation.alias,
            message: `${name} is ${relation.via === 'join' ? 'joined' : 'correlated'} to ${other.table} ${other.alias} without ${relation.alias}.workspace_id = ${other.alias}.workspace_id`,
          });
        }
      }
      if (joinedTables.length === 0) {
        // The statement's own first table is restricted by a value only (a workspace's id).
        const isValue = (operand: Operand) => operand !== undefined && 'value' in operand;
        const restricted = equalities.some(([left, right]) =>
          relation.via === 'first' && !at.nested
            ? (isOwnWorkspace(left) && isValue(right)) || (isOwnWorkspace(right) && isValue(left))
            : isOwnWorkspace(left) || isOwnWorkspace(right),
        );
        if (!restricted) {
          problems.push({
            table: relation.table,
            alias: relation.alias,
            message: `${name} (${relation.via === 'join' ? 'joined' : at.nested ? 'in a subquery' : 'read'}) has no condition on ${relation.alias}.workspace_id`,
          });
        }
      }
    }
  }
  return problems;
}
