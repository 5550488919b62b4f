import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client.ts';
import { noReadInFlight, readStarted } from './reads-in-flight.ts';
import { whenIdle } from './when-idle.ts';

beforeEach(() => {
  vi.useFakeTimers();
  // Without an idle callback the browser's idle moment is a timer of 200 ms.
  vi.stubGlobal('requestIdleCallback', undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whenIdle', () => {
  it('runs at the first idle moment when no read is under way', () => {
    const run = vi.fn();
    whenIdle(run);
    vi.advanceTimersByTime(199);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('waits for a slow read to answer, however long the browser has been idle, then for an idle moment', () => {
    const run = vi.fn();
    whenIdle(run);
    // The page's read starts after the deferred work was asked for (a child's effect runs first).
    const answered = readStarted();
    vi.advanceTimersByTime(10_000);
    expect(run).not.toHaveBeenCalled();
    answered();
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(run).toHaveBeenCalledTimes(1);
    expect(noReadInFlight()).toBe(true);
  });

  it('waits until every read has answered, a second one started while the first was under way', () => {
    const run = vi.fn();
    const first = readStarted();
    whenIdle(run);
    vi.advanceTimersByTime(200);
    const second = readStarted();
    first();
    first(); // marked twice: counted once
    vi.advanceTimersByTime(1_000);
    expect(run).not.toHaveBeenCalled();
    second();
    vi.advanceTimersByTime(200);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled, before the idle moment or while waiting for a read', () => {
    const early = vi.fn();
    whenIdle(early)();
    vi.advanceTimersByTime(1_000);
    expect(early).not.toHaveBeenCalled();

    const waiting = vi.fn();
    const answered = readStarted();
    const cancel = whenIdle(waiting);
    vi.advanceTimersByTime(200);
    cancel();
    answered();
    vi.advanceTimersByTime(1_000);
    expect(waiting).not.toHaveBeenCalled();
  });

  it('counts the API client’s reads until their answer has arrived, and not its writes', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const read = apiRequest('/brands');
    expect(noReadInFlight()).toBe(false);
    answer(new Response(JSON.stringify({ data: [] }), { status: 200 }));
    await read;
    expect(noReadInFlight()).toBe(true);

    const write = apiRequest('/brands', { method: 'POST', body: {} });
    expect(noReadInFlight()).toBe(true);
    answer(new Response(JSON.stringify({ data: {} }), { status: 201 }));
    await write;

    // A refused read is answered too.
    const refused = apiRequest('/brands').catch(() => undefined);
    answer(new Response(JSON.stringify({}), { status: 500 }));
    await refused;
    expect(noReadInFlight()).toBe(true);
  });
});
