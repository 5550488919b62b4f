import { describe, expect, it } from 'vitest';
import { workspaceJoinProblems, workspaceTableNames } from './helpers/workspace-joins.ts';

/** How workspace-joins.ts reads a statement: what it accepts and what it names. */
const tables = workspaceTableNames();
const problems = (statement: string) =>
  workspaceJoinProblems(statement, tables).map((problem) => problem.message);

describe('the workspace tables', () => {
  it('are the tables with a workspace_id column, and only they', () => {
    expect(tables).toContain('products');
    expect(tables).toContain('memberships');
    expect(tables).toContain('invoices');
    expect(tables).not.toContain('workspaces');
    expect(tables).not.toContain('users');
  });
});

describe('a join between workspace tables', () => {
  it('carrying the workspace passes, in either order and in Drizzle quoting', () => {
    expect(
      problems(`select p.id from products p
        join product_variants v on v.product_id = p.id and v.workspace_id = p.workspace_id
        where p.workspace_id = $1`),
    ).toEqual([]);
    expect(
      problems(`select "roles"."id" from "memberships" left join "roles"
        on ("roles"."id" = "memberships"."role_id" and "memberships"."workspace_id" = "roles"."workspace_id")
        where "memberships"."user_id" = $1`),
    ).toEqual([]);
  });

  it('without it is named, with both tables', () => {
    expect(
      problems(
        `select p.id from products p join product_variants v on v.product_id = p.id where p.workspace_id = $1`,
      ),
    ).toEqual(['product_variants v is joined to products p without v.workspace_id = p.workspace_id']);
  });

  it('to a global table needs nothing', () => {
    expect(
      problems(`select 1 from memberships join workspaces on workspaces.id = memberships.workspace_id
        join users on users.id = memberships.user_id where memberships.user_id = $1`),
    ).toEqual([]);
  });

  it('restricted by a value in the where clause only is still named: the join must carry it', () => {
    expect(
      problems(`select 1 from recipe_lines line join products p on p.id = line.product_id
        where line.workspace_id = $1 and p.workspace_id = $1`),
    ).toHaveLength(1);
  });
});

describe('a subquery', () => {
  it('correlated with a workspace table needs the equality', () => {
    expect(
      problems(`select "roles"."id", (select count(*) from "memberships" where "memberships"."role_id" = "roles"."id")
        from "roles" where "roles"."workspace_id" = $1`),
    ).toEqual([
      'memberships is correlated to roles roles without memberships.workspace_id = roles.workspace_id',
    ]);
    expect(
      problems(`select "roles"."id", (select count(*) from "memberships" where "memberships"."role_id" = "roles"."id"
          and "memberships"."workspace_id" = "roles"."workspace_id")
        from "roles" where "roles"."workspace_id" = $1`),
    ).toEqual([]);
  });

  it('in exists, not exists and lateral joins is read', () => {
    expect(
      problems(`delete from uploads where created_at < $1 and not exists (
        select 1 from products cross join lateral unnest(products.images) as referenced(path)
        where referenced.path = uploads.path)`),
    ).toEqual([
      'products is correlated to uploads uploads without products.workspace_id = uploads.workspace_id',
    ]);
  });

  it('of its own (in, a common table expression) needs a workspace condition', () => {
    expect(
      problems(
        `select id from products where workspace_id = $1 and id in (select product_id from recipe_lines where ingredient_product_id = $2)`,
      ),
    ).toEqual(['recipe_lines (in a subquery) has no condition on recipe_lines.workspace_id']);
    expect(
      problems(`with p as (select id from products where workspace_id = $1)
        select refs.id from p as refs cross join lateral (
          select name_en from measurement_units where id = refs.id
          union all select name_en from categories where id = refs.id and workspace_id = $1) names`),
    ).toEqual(['measurement_units (in a subquery) has no condition on measurement_units.workspace_id']);
  });

  it('of a recursive walk joins each step in the workspace', () => {
    const walk = (condition: string) => `with recursive tree as (
        select id from "categories" where workspace_id = $1 and id = any(($2)::uuid[])
        union all
        select child.id from "categories" child join tree on child.parent_id = tree.id${condition})
      select id from tree`;
    expect(problems(walk(''))).toEqual([
      'categories child (in a subquery) has no condition on child.workspace_id',
    ]);
    expect(problems(walk(' and child.workspace_id = $1'))).toEqual([]);
  });
});

describe('a statement over every workspace', () => {
  it('may scan its first table without a workspace', () => {
    expect(problems(`select id from subscriptions where status = any($1) and end_date < $2`)).toEqual([]);
    expect(problems(`update invites set expires_at = $1 where token_hash = $2`)).toEqual([]);
  });

  it('is named with firstTables, unless a value restricts its workspace', () => {
    const firstTables = (statement: string) =>
      workspaceJoinProblems(statement, tables, { firstTables: true }).map((problem) => problem.message);
    expect(firstTables(`update invites set expires_at = $1 where token_hash = $2`)).toEqual([
      'invites (read) has no condition on invites.workspace_id',
    ]);
    expect(
      firstTables(`select 1 from memberships join workspaces on workspaces.id = memberships.workspace_id
        where memberships.user_id = $1`),
    ).toHaveLength(1);
    expect(
      firstTables(`update invites set expires_at = $1 where workspace_id = $2 and user_id = $3`),
    ).toEqual([]);
  });
});
