import { describe, expect, it } from 'vitest';
import { auditLogResource } from '../resources/audit-log.ts';
import { listQuerySchema } from './list-query.ts';

const workspaceId = '00000000-0000-4000-8000-000000000001';
const parse = (query: Record<string, string>) =>
  listQuerySchema(auditLogResource).safeParse({ workspaceId, ...query }) as {
    success: boolean;
    data?: Record<string, unknown>;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  };
const issuesOf = (query: Record<string, string>) => {
  const result = parse(query);
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => [issue.path[0], issue.message]);
};

describe('the list query of a date range filter', () => {
  it('takes both ends, or either alone, as days', () => {
    expect(parse({ at: '2026-11-01..2026-11-29' }).data?.at).toEqual({
      from: '2026-11-01',
      to: '2026-11-29',
    });
    expect(parse({ at: '2026-11-01..' }).data?.at).toEqual({ from: '2026-11-01' });
    expect(parse({ at: '..2026-11-29' }).data?.at).toEqual({ to: '2026-11-29' });
    expect(parse({ at: '2026-11-29..2026-11-29' }).data?.at).toEqual({
      from: '2026-11-29',
      to: '2026-11-29',
    });
  });

  it.each([
    '..',
    '2026-11-01',
    '2026-11-29..2026-11-01',
    '2026-13-01..',
    '2026-11-01..2026-11-02..',
    '1/11/2026..',
  ])('refuses %s with FILTER_IS_INVALID', (at) => {
    expect(issuesOf({ at })).toEqual([['at', 'FILTER_IS_INVALID']]);
  });
});

describe('the list query of an id filter', () => {
  it('takes the ids of any record as text, several comma-separated, and no `none`', () => {
    expect(parse({ recordId: 'a,b' }).data?.recordId).toEqual(['a', 'b']);
    expect(issuesOf({ recordId: 'x'.repeat(101) })).toEqual([['recordId', 'FILTER_TOO_LONG']]);
    expect(issuesOf({ recordId: 'a\u0000b' })).toEqual([['recordId', 'FILTER_IS_INVALID']]);
  });

  it('keeps a reference filter to ids and none', () => {
    expect(parse({ actorUserId: `none,${workspaceId}` }).data?.actorUserId).toEqual(['none', workspaceId]);
    expect(issuesOf({ actorUserId: 'someone' })).toEqual([['actorUserId', 'FILTER_IS_INVALID']]);
  });
});
