import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { Button } from './button.tsx';
import { Dialog, DialogBody, DialogCancel, DialogFooter, dialogFormClassName } from './dialog.tsx';

/** A form dialog as the pages build one: opened by a button, closed by Cancel, Escape or saving. */
function NoteDialog({ onClose }: { onClose: () => void }) {
  const form = useForm({ defaultValues: { title: '', body: '' } });
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="New note"
      confirmClose={form.formState.isDirty}
    >
      <form noValidate onSubmit={form.handleSubmit(onClose)} className={dialogFormClassName}>
        <DialogBody>
          <label>
            Title
            <input {...form.register('title')} />
          </label>
          <label>
            Body
            <textarea {...form.register('body')} />
          </label>
        </DialogBody>
        <DialogFooter>
          <DialogCancel />
          <Button type="submit">Save</Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

function NotesPage() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button">Before</button>
      <button type="button" onClick={() => setOpen(true)}>
        New note
      </button>
      {open && <NoteDialog onClose={() => setOpen(false)} />}
    </>
  );
}

/** The opener goes away with the action it started (a deleted row's button). */
function PageWithoutOpener() {
  const [open, setOpen] = useState(false);
  return (
    <main id="main-content" tabIndex={-1}>
      {!open && (
        <button type="button" onClick={() => setOpen(true)}>
          Delete row
        </button>
      )}
      <Dialog open={open} onOpenChange={setOpen} title="Row deleted">
        <DialogFooter>
          <DialogCancel>Done</DialogCancel>
        </DialogFooter>
      </Dialog>
    </main>
  );
}

/** Opened from a menu item, which is gone once the menu closes. */
function PageWithMenu() {
  const [menuOpen, setMenuOpen] = useState(true);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" id="row-menu">
        Row actions
      </button>
      {menuOpen && (
        <div role="menu" aria-labelledby="row-menu">
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              setMenuOpen(false);
              setOpen(true);
            }}
          >
            Rename
          </button>
        </div>
      )}
      <Dialog open={open} onOpenChange={setOpen} title="Rename">
        <DialogFooter>
          <DialogCancel />
        </DialogFooter>
      </Dialog>
    </>
  );
}

async function openNoteDialog() {
  const person = userEvent.setup();
  render(<NotesPage />);
  const opener = screen.getByRole('button', { name: 'New note' });
  await person.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'New note' });
  return { person, opener, dialog, form: within(dialog) };
}

// `hidden`: while the question is open, Radix hides the dialog under it (and its name) from assistive technology.
const noteDialog = () => screen.queryByRole('dialog', { hidden: true });
const discardQuestion = () => screen.queryByRole('alertdialog', { name: 'Discard your changes?' });

describe('Dialog focus', () => {
  it('starts on the first field, not on the close button of the title bar', async () => {
    const { form } = await openNoteDialog();
    await waitFor(() => expect(document.activeElement).toBe(form.getByLabelText('Title')));
  });

  it('gives the focus back to the control that opened it after Cancel', async () => {
    const { person, opener, form } = await openNoteDialog();
    await person.click(form.getByRole('button', { name: 'Cancel' }));
    expect(noteDialog()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('gives the focus back to the control that opened it after Escape', async () => {
    const { person, opener } = await openNoteDialog();
    await person.keyboard('{Escape}');
    expect(noteDialog()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('gives the focus back to the control that opened it after saving', async () => {
    const { person, opener, form } = await openNoteDialog();
    await person.type(form.getByLabelText('Title'), 'Stock');
    await person.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(noteDialog()).toBeNull());
    expect(discardQuestion()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('keeps Tab and Shift+Tab inside the dialog', async () => {
    const { person, form } = await openNoteDialog();
    const title = form.getByLabelText('Title');
    await waitFor(() => expect(document.activeElement).toBe(title));
    const save = form.getByRole('button', { name: 'Save' });
    const close = form.getByRole('button', { name: 'Close' });
    // Title → Body → Cancel → Save, then round to the close button at the top, never the page behind.
    await person.tab();
    await person.tab();
    await person.tab();
    expect(document.activeElement).toBe(save);
    await person.tab();
    expect(document.activeElement).toBe(close);
    await person.tab({ shift: true });
    expect(document.activeElement).toBe(save);
  });

  it('gives the focus to the main content when the opener is gone', async () => {
    const person = userEvent.setup();
    render(<PageWithoutOpener />);
    await person.click(screen.getByRole('button', { name: 'Delete row' }));
    await person.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('gives the focus to the menu button when a menu item opened it', async () => {
    const person = userEvent.setup();
    render(<PageWithMenu />);
    await person.click(screen.getByRole('menuitem', { name: 'Rename' }));
    await person.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Row actions' })),
    );
  });
});

describe('Dialog with unsaved changes', () => {
  it('closes a clean form at once, without asking', async () => {
    const { person } = await openNoteDialog();
    await person.keyboard('{Escape}');
    expect(noteDialog()).toBeNull();
    expect(discardQuestion()).toBeNull();
  });

  it('asks before Escape discards; Keep editing keeps the values and the focus where it was', async () => {
    const { person, form } = await openNoteDialog();
    const title = form.getByLabelText('Title');
    await person.type(title, 'Stock take');
    await person.keyboard('{Escape}');
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    expect(noteDialog()).not.toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Keep editing' })),
    );
    await person.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(discardQuestion()).toBeNull();
    expect(noteDialog()).not.toBeNull();
    expect((title as HTMLInputElement).value).toBe('Stock take');
    await waitFor(() => expect(document.activeElement).toBe(title));
  });

  it('asks before Cancel discards; Discard closes and gives the focus back to the opener', async () => {
    const { person, opener, form } = await openNoteDialog();
    await person.type(form.getByLabelText('Body'), 'Count the shelves');
    await person.click(form.getByRole('button', { name: 'Cancel' }));
    const question = await screen.findByRole('alertdialog', { name: 'Discard your changes?' });
    await person.click(within(question).getByRole('button', { name: 'Discard' }));
    expect(discardQuestion()).toBeNull();
    expect(noteDialog()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('asks before the close button or a click on the backdrop discards', async () => {
    const { person, form, dialog } = await openNoteDialog();
    await person.type(form.getByLabelText('Title'), 'x');
    await person.click(form.getByRole('button', { name: 'Close' }));
    await person.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Keep editing' }),
    );
    expect(noteDialog()).not.toBeNull();

    // The backdrop is the dialog's sibling in its portal.
    const backdrop = dialog.previousElementSibling as HTMLElement;
    await person.click(backdrop);
    expect(await screen.findByRole('alertdialog', { name: 'Discard your changes?' })).toBeTruthy();
    // Escape on the question is "keep editing", not a second discard.
    await person.keyboard('{Escape}');
    await waitFor(() => expect(discardQuestion()).toBeNull());
    expect(noteDialog()).not.toBeNull();
    expect((form.getByLabelText('Title') as HTMLInputElement).value).toBe('x');
  });

  it('no longer asks once the changes are undone', async () => {
    const { person, form } = await openNoteDialog();
    const title = form.getByLabelText('Title');
    await person.type(title, 'ab');
    await person.clear(title);
    await act(async () => undefined);
    await person.keyboard('{Escape}');
    expect(discardQuestion()).toBeNull();
    expect(noteDialog()).toBeNull();
  });
});
