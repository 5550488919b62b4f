import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * The modal dialog of that name once a person can use it: a modal takes the page's pointer events
 * away as it opens and gives them back to itself a render later, so a click or an upload sent
 * between the two is refused as aimed at an element without pointer events.
 */
export async function openDialog(name: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', { name });
  await waitFor(() => expect(dialog.style.pointerEvents).toBe('auto'));
  return dialog;
}
