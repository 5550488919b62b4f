import { describe, expect, it } from 'vitest';
import { collapseList } from './collapse-list.ts';

describe('collapseList', () => {
  it('shows every item of a list that fits in its lines', () => {
    expect(collapseList(0, 5)).toEqual({ shown: 0, hidden: 0 });
    expect(collapseList(3, 5)).toEqual({ shown: 3, hidden: 0 });
    expect(collapseList(5, 5)).toEqual({ shown: 5, hidden: 0 });
  });

  it('gives a longer list one line fewer and a "+N more" line, so it never grows past its limit', () => {
    expect(collapseList(6, 5)).toEqual({ shown: 4, hidden: 2 });
    expect(collapseList(7, 3)).toEqual({ shown: 2, hidden: 5 });
    expect(collapseList(170, 5)).toEqual({ shown: 4, hidden: 166 });
  });

  it('never hides a single item behind "+1 more"', () => {
    for (let count = 0; count <= 12; count += 1)
      for (let limit = 1; limit <= 6; limit += 1) expect(collapseList(count, limit).hidden).not.toBe(1);
  });

  it('keeps at least one line, whatever the limit asked for', () => {
    expect(collapseList(4, 0)).toEqual({ shown: 0, hidden: 4 });
    expect(collapseList(1, 0)).toEqual({ shown: 1, hidden: 0 });
  });
});
