import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { refuseTagsNotHeld, tagsNotHeld } from './grant-rules.ts';

const cashier = { isAdmin: false, tags: new Set(['viewProducts', 'addBrands']) };
const admin = { isAdmin: true, tags: new Set<string>() };

describe('no escalation: tags a grant does not hold', () => {
  it('lists the missing tags once each, in the order asked', () => {
    expect(tagsNotHeld(cashier, ['viewProducts', 'deleteUsers', 'editTaxes', 'deleteUsers'])).toEqual([
      'deleteUsers',
      'editTaxes',
    ]);
    expect(tagsNotHeld(cashier, ['viewProducts', 'addBrands'])).toEqual([]);
    expect(tagsNotHeld(cashier, [])).toEqual([]);
  });

  it('an admin holds everything; someone without a role holds nothing', () => {
    expect(tagsNotHeld(admin, ['deleteUsers', 'editExchangeRate'])).toEqual([]);
    expect(tagsNotHeld({ isAdmin: false, tags: new Set() }, ['viewDashboard'])).toEqual(['viewDashboard']);
  });

  it('refuseTagsNotHeld throws FORBIDDEN naming the missing tags, or passes', () => {
    expect(() => refuseTagsNotHeld(cashier, ['addBrands'], 'No')).not.toThrow();
    try {
      refuseTagsNotHeld(
        cashier,
        ['addBrands', 'deleteUsers'],
        'You cannot grant permissions you do not hold',
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).toBody()).toEqual({
        statusCode: 403,
        code: 'FORBIDDEN',
        name: 'ForbiddenError',
        message: 'You cannot grant permissions you do not hold: deleteUsers',
      });
    }
  });
});
