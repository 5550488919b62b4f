import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyToaster } from './app.tsx';

afterEach(() => {
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

/** requestIdleCallback, run when the test says the browser is idle. */
function idleCallbacks() {
  const pending: (() => void)[] = [];
  const request = vi.fn((run: () => void) => pending.push(run));
  vi.stubGlobal('requestIdleCallback', request);
  vi.stubGlobal('cancelIdleCallback', vi.fn());
  const runAll = () =>
    act(() => {
      for (const run of pending.splice(0)) run();
    });
  return Object.assign(runAll, { request });
}

/** The toaster at a path, with a toast raised right after the first render. */
function renderWithToast(path: string, message: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <LazyToaster />
    </MemoryRouter>,
  );
  act(() => void toast(message));
}

describe('LazyToaster', () => {
  it('shows nothing until the browser is idle on a signed-in page, then the toasts raised meanwhile', async () => {
    const idle = idleCallbacks();
    renderWithToast('/brands', 'Saved');
    expect(screen.queryByText('Saved')).toBeNull();
    idle();
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('waits for an interaction on the login page, not for idleness', async () => {
    const idle = idleCallbacks();
    renderWithToast('/login', 'Wrong password');
    // Nothing waits for idleness here: only an interaction mounts it.
    expect(idle.request).not.toHaveBeenCalled();
    idle();
    expect(screen.queryByText('Wrong password')).toBeNull();
    act(() => void window.dispatchEvent(new Event('keydown')));
    expect(await screen.findByText('Wrong password')).toBeTruthy();
  });
});
