import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { unstable_HistoryRouter as HistoryRouter, Link, Route, Routes, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedHistory, leaveIfAllowed, leaveWithoutAsking } from '../lib/leave-guard.ts';
import { useWorkspace } from '../lib/workspace-context.tsx';
import { renderSignedIn, testUser } from '../test/render.tsx';
import { UnsavedChangesGuard } from './unsaved-changes-guard.tsx';

/** A full page with a form, as the product and profile pages build one. */
function NotePage() {
  const form = useForm({ defaultValues: { title: '' } });
  const navigate = useNavigate();
  const [switched, setSwitched] = useState(false);
  return (
    <main>
      <h1>Edit note</h1>
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => {
          // Saved: the page moves on without asking, as the product page does after a create.
          leaveWithoutAsking(() => void navigate('/notes'));
          form.reset(values);
        })}
      >
        <label>
          Title
          <input {...form.register('title')} />
        </label>
        <button type="submit">Save</button>
      </form>
      <Link to="/notes">Cancel</Link>
      <Link to="/other">Other page</Link>
      <Link to="/edit">This page</Link>
      {/* The workspace switch asks the same way (lib/workspace-context.tsx). */}
      <button type="button" onClick={() => leaveIfAllowed(() => setSwitched(true))}>
        Switch workspace
      </button>
      {switched && <p>Switched</p>}
    </main>
  );
}

/** A page in the signed-in shell's workspace, whose switch asks the same way. */
function WorkspaceNote() {
  const form = useForm({ defaultValues: { title: '' } });
  const { selectedWorkspace } = useWorkspace();
  return (
    <main>
      <p>{`In ${selectedWorkspace?.name}`}</p>
      <UnsavedChangesGuard when={form.formState.isDirty} />
      <label>
        Title
        <input {...form.register('title')} />
      </label>
    </main>
  );
}

function renderApp(at = '/edit') {
  // The page was reached from /start through the router, as the app's pages are.
  window.history.replaceState(null, '', '/start');
  const history = createGuardedHistory(window);
  history.push(at);
  render(
    <HistoryRouter history={history}>
      <Routes>
        <Route path="/edit" element={<NotePage />} />
        <Route path="/notes" element={<h1>Notes</h1>} />
        <Route path="/other" element={<h1>Other page</h1>} />
        <Route path="/start" element={<h1>Start</h1>} />
      </Routes>
    </HistoryRouter>,
  );
  return history;
}

const discardDialog = () => screen.findByRole('alertdialog', { name: 'Discard your changes?' });

describe('UnsavedChangesGuard', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => {
    window.history.replaceState(null, '', '/');
  });

  it('lets a page without changes go at once', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    expect(await screen.findByRole('heading', { name: 'Other page' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks before a link leaves unsaved changes; Keep editing stays with every value', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    await user.click(screen.getByRole('link', { name: 'Cancel' }));

    const dialog = await discardDialog();
    expect(dialog.textContent).toContain('has not been saved');
    // Keep editing has the focus first: Enter never discards by accident.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Keep editing'));
    await user.keyboard('{Enter}');

    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/edit');
    expect(screen.getByRole('heading', { name: 'Edit note' })).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Groceries');
  });

  it('goes on to where the member was going once they discard', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    await user.click(screen.getByRole('link', { name: 'Other page' }));
    await user.click(await screen.findByRole('button', { name: 'Discard' }));

    expect(await screen.findByRole('heading', { name: 'Other page' })).toBeTruthy();
    expect(window.location.pathname).toBe('/other');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('does not ask for a link to the page already shown', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    await user.click(screen.getByRole('link', { name: 'This page' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Groceries');
  });

  it('asks before the browser’s Back leaves; the address is put back, and Discard goes back', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');

    act(() => window.history.back());
    await discardDialog();
    // The address moved back to the page the member is still on.
    await waitFor(() => expect(window.location.pathname).toBe('/edit'));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Groceries');

    await user.click(screen.getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(window.location.pathname).toBe('/edit');

    act(() => window.history.back());
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { name: 'Start' })).toBeTruthy();
    expect(window.location.pathname).toBe('/start');
  });

  it('asks before the workspace switch, which happens only once discarded', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    await user.click(screen.getByRole('button', { name: 'Switch workspace' }));
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByText('Switched')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Switch workspace' }));
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('Switched')).toBeTruthy();
  });

  it('moves on without asking after a save', async () => {
    const user = userEvent.setup();
    renderApp();
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Notes' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the browser’s own prompt for a reload or a closed tab while there are changes', async () => {
    const user = userEvent.setup();
    renderApp();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(screen.getByLabelText('Title'), 'Groceries');
    expect(unload()).toBe(true);
    await user.clear(screen.getByLabelText('Title'));
    expect(unload()).toBe(false);
  });

  it('asks before the shell’s workspace switch, which keeps the workspace until discarded', async () => {
    const user = userEvent.setup();
    renderSignedIn(<WorkspaceNote />, {
      user: testUser([
        { id: 'w-1', name: 'Cairo Sweets', grant: 'admin' },
        { id: 'w-2', name: 'Giza Sweets', grant: 'admin' },
      ]),
    });
    expect(screen.getByText('In Cairo Sweets')).toBeTruthy();
    await user.type(screen.getByLabelText('Title'), 'Basbousa');

    await user.click(screen.getByRole('button', { name: 'switch to Giza Sweets' }));
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByText('In Cairo Sweets')).toBeTruthy();
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Basbousa');

    await user.click(screen.getByRole('button', { name: 'switch to Giza Sweets' }));
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(await screen.findByText('In Giza Sweets')).toBeTruthy();
  });
});
