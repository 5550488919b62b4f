import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode, Suspense, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type LazyComponent, lazyComponent, useArrived } from './lazy-component.tsx';

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

/** Shows a render's failure, as the app's error boundary would. */
class Caught extends Component<{ children: ReactNode }, { message?: string }> {
  override state: { message?: string } = {};
  static getDerivedStateFromError(error: Error) {
    return { message: error.message };
  }
  override render() {
    return this.state.message ? <p>{`failed: ${this.state.message}`}</p> : this.props.children;
  }
}

/** A caller of `useArrived`: its own placeholder until the chunk is there. */
function Gate({ chunk: Chunk, wanted = true }: { chunk: LazyComponent<{ name: string }>; wanted?: boolean }) {
  const arrived = useArrived(Chunk, wanted);
  return arrived ? <Chunk name="Sara" /> : <p>placeholder</p>;
}

describe('useArrived', () => {
  it('keeps the caller’s placeholder until the chunk has arrived, then renders it without suspending', async () => {
    const { load, finish } = deferredChunk();
    const fallback = vi.fn();
    render(
      <Suspense fallback={<Fallback onShow={fallback} />}>
        <Gate chunk={lazyComponent(load)} />
      </Suspense>,
    );
    expect(screen.getByText('placeholder')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(await screen.findByRole('button', { name: 'Hello Sara, 0' })).toBeTruthy();
    // Never a Suspense fallback in between (React would hold the content back behind it).
    expect(fallback).not.toHaveBeenCalled();
  });

  it('asks for nothing while not wanted', () => {
    const { load } = deferredChunk();
    render(<Gate chunk={lazyComponent(load)} wanted={false} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.getByText('placeholder')).toBeTruthy();
  });

  it('lets the component render after a failed download, to report it', async () => {
    const load = vi.fn(async (): Promise<typeof Greeting> => {
      throw new Error('offline');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Caught>
        <Suspense fallback={null}>
          <Gate chunk={lazyComponent(load)} />
        </Suspense>
      </Caught>,
    );
    expect(screen.getByText('placeholder')).toBeTruthy();
    // Rendered once settled: the lazy render asks again, and its failure is the boundary's to show.
    expect(await screen.findByText('failed: offline')).toBeTruthy();
    expect(load.mock.calls.length).toBeGreaterThanOrEqual(2);
    vi.mocked(console.error).mockRestore();
  });
});
