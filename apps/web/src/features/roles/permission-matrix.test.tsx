import {
  allPermissionTags,
  type PermissionAction,
  type PermissionTag,
  permissionActions,
  permissionResources,
} from '@dukkan/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PermissionMatrix } from './permission-matrix.tsx';

function Harness({ initial = [], held }: { initial?: string[]; held?: PermissionTag[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <PermissionMatrix
        value={value}
        onChange={setValue}
        grantable={(tag) => (held ? held.includes(tag) : true)}
      />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

/** How many permission resources have the action (a column's boxes), from the catalogue of tags. */
const withAction = (action: PermissionAction) =>
  Object.values(permissionResources).filter((actions) => (actions as readonly string[]).includes(action))
    .length;

const box = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
const value = () => screen.getByTestId('value').textContent?.split(',').filter(Boolean) ?? [];

describe('PermissionMatrix', () => {
  it('has a checkbox only where the catalogue has the tag', () => {
    render(<Harness />);
    const dashboard = screen.getByRole('row', { name: /Dashboard/ });
    expect(
      within(dashboard)
        .getAllByRole('checkbox')
        .map((input) => input.getAttribute('aria-label')),
    ).toEqual(['Every permission on Dashboard', 'View Dashboard']);
    expect(screen.queryByRole('checkbox', { name: 'Delete Exchange rates' })).toBeNull();
    expect(box('Edit Exchange rates')).toBeTruthy();
    // One box per tag of the catalogue, plus the headers: all, one per action, one per resource.
    const headers = 1 + permissionActions.length + Object.keys(permissionResources).length;
    expect(screen.getAllByRole('checkbox')).toHaveLength(allPermissionTags.length + headers);
  });

  it('selects and clears a whole row, with a mixed state in between', async () => {
    const person = userEvent.setup();
    render(<Harness />);
    await person.click(box('View Products'));
    expect(box('Every permission on Products').indeterminate).toBe(true);
    expect(box('Every permission on Products').getAttribute('aria-checked')).toBe('mixed');

    await person.click(box('Every permission on Products'));
    expect(value()).toEqual(['viewProducts', 'addProducts', 'editProducts', 'deleteProducts']);
    expect(box('Every permission on Products').checked).toBe(true);
    expect(box('Every permission on Products').indeterminate).toBe(false);

    await person.click(box('Every permission on Products'));
    expect(value()).toEqual([]);
  });

  it('selects a whole column: the action on every resource that has it', async () => {
    const person = userEvent.setup();
    render(<Harness />);
    await person.click(box('Delete: every resource'));
    expect(value()).toHaveLength(withAction('delete'));
    expect(value()).not.toContain('deleteExchangeRate');
    expect(value().every((tag) => tag.startsWith('delete'))).toBe(true);
    expect(box('Every permission on Brands').indeterminate).toBe(true);

    await person.click(box('View: every resource'));
    expect(value()).toContain('viewDashboard');
    expect(value()).toHaveLength(withAction('delete') + withAction('view'));
    await person.click(box('All permissions'));
    expect(value()).toHaveLength(allPermissionTags.length);
  });

  it('keeps the tags a non-admin does not hold disabled, and a group toggles only the others', async () => {
    const person = userEvent.setup();
    render(<Harness held={['viewProducts', 'addProducts', 'viewBrands']} initial={['deleteBrands']} />);
    expect(box('View Products').disabled).toBe(false);
    expect(box('Edit Products').disabled).toBe(true);
    expect(box('Delete Brands').disabled).toBe(true);
    expect(box('Delete Brands').checked).toBe(true);
    expect(box('Every permission on Taxes').disabled).toBe(true);

    await person.click(box('Every permission on Products'));
    expect(value()).toEqual(['viewProducts', 'addProducts', 'deleteBrands']);
    expect(box('Every permission on Products').indeterminate).toBe(true);

    await person.click(box('All permissions'));
    expect(value().sort()).toEqual(['addProducts', 'deleteBrands', 'viewBrands', 'viewProducts']);
    // Clicking again clears what the user may grant; what they may not is left as it was.
    await person.click(box('All permissions'));
    expect(value()).toEqual(['deleteBrands']);
  });
});
