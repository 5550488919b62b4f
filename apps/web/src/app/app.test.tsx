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
  vi.stubGlobal(
    'requestIdleCallback',
    vi.fn((run: () => void) => pending.push(run)),
  );
  vi.stubGlobal('cancelIdleCallback', vi.fn());
  return () =>
    act(() => {
      for (const run of pending.splice(0)) run();
    });
}

describe('LazyToaster', () => {
  it('shows nothing until the browser is idle on a signed-in page, then the toasts raised meanwhile', async () => {
    const idle = idleCallbacks();
    render(
      <MemoryRouter initialEntries={['/brands']}>
        <LazyToaster />
      </MemoryRouter>,
    );
    act(() => void toast('Saved'));
    expect(screen.queryByText('Saved')).toBeNull();
    idle();
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('waits for an interaction on the login page, not for idleness', async () => {
    const idle = idleCallbacks();
    render(
      <MemoryRouter initialEntries={['/login']}>
        <LazyToaster />
      </MemoryRouter>,
    );
    act(() => void toast('Wrong password'));
    idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Wrong password')).toBeNull();
    act(() => void window.dispatchEvent(new Event('keydown')));
    expect(await screen.findByText('Wrong password')).toBeTruthy();
  });
});
