import { act, render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyComponent } from './lazy-component.tsx';

/** The chunk's component: a button counting its clicks. */
function Greeting({ name }: { name: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks(clicks + 1)}>
      {`Hello ${name}, ${clicks}`}
    </button>
  );
}

/** A chunk whose download the test finishes when it wants. */
function deferredChunk() {
  let finish!: () => void;
  const arrived = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const load = vi.fn(async () => {
    await arrived;
    return Greeting;
  });
  return { load, finish };
}

function Fallback({ onShow }: { onShow: () => void }) {
  onShow();
  return <p>Loading</p>;
}

/** Counts how often the suspense fallback was shown. */
function fallbackProbe() {
  const shown = vi.fn();
  return { shown, fallback: <Fallback onShow={shown} /> };
}

describe('lazyComponent', () => {
  it('renders at once, without a fallback, when its chunk arrived before the first render', async () => {
    const chunk = deferredChunk();
    const LazyGreeting = lazyComponent(chunk.load);
    const preloaded = LazyGreeting.preload();
    chunk.finish();
    await preloaded;
    const probe = fallbackProbe();
    render(
      <Suspense fallback={probe.fallback}>
        <LazyGreeting name="Sara" />
      </Suspense>,
    );
    // `React.lazy` suspends at its first render whatever the state of its promise.
    expect(screen.getByRole('button', { name: 'Hello Sara, 0' })).toBeTruthy();
    expect(probe.shown).not.toHaveBeenCalled();
  });

  it('waits behind the fallback when its chunk is still on the way, then shows the component', async () => {
    const chunk = deferredChunk();
    const LazyGreeting = lazyComponent(chunk.load);
    const probe = fallbackProbe();
    render(
      <Suspense fallback={probe.fallback}>
        <LazyGreeting name="Sara" />
      </Suspense>,
    );
    expect(screen.getByText('Loading')).toBeTruthy();
    await act(async () => chunk.finish());
    expect(await screen.findByRole('button', { name: 'Hello Sara, 0' })).toBeTruthy();
  });

  it('keeps a mounted instance, and its state, once the chunk has arrived', async () => {
    const chunk = deferredChunk();
    const LazyGreeting = lazyComponent(chunk.load);
    const { rerender } = render(
      <Suspense fallback={<p>Loading</p>}>
        <LazyGreeting name="Sara" />
      </Suspense>,
    );
    await act(async () => chunk.finish());
    const button = await screen.findByRole('button', { name: 'Hello Sara, 0' });
    act(() => button.click());
    rerender(
      <Suspense fallback={<p>Loading</p>}>
        <LazyGreeting name="Omar" />
      </Suspense>,
    );
    // The instance mounted through `lazy` stays that instance: its count survives the new props.
    expect(screen.getByRole('button', { name: 'Hello Omar, 1' })).toBeTruthy();
  });

  it('downloads once however often it is asked, and asks again after a failed download', async () => {
    const load = vi
      .fn<() => Promise<() => null>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(() => null);
    const Empty = lazyComponent(load);
    await expect(Empty.preload()).rejects.toThrow('offline');
    await Promise.all([Empty.preload(), Empty.preload()]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
