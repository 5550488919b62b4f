import { afterEach, describe, expect, it, vi } from 'vitest';
import { preloadPageAt } from './pages.tsx';

// Which page modules were downloaded (imported), recorded by their stand-ins.
const imported = vi.hoisted(() => new Set<string>());
vi.mock('../features/products/product-page.tsx', () => {
  imported.add('product-page');
  return { ProductPage: () => null };
});
vi.mock('../features/roles/roles-page.tsx', () => {
  imported.add('roles-page');
  return { RolesPage: () => null };
});

afterEach(() => {
  vi.clearAllMocks();
});

describe('preloadPageAt', () => {
  it("asks for the chunk of the page the address opens, and no other page's", async () => {
    preloadPageAt('/authority-roles');
    await vi.waitFor(() => expect(imported.has('roles-page')).toBe(true));
    expect(imported.has('product-page')).toBe(false);

    preloadPageAt('/products/0b9c6a4e-2f4b-4f55-9a53-3f1d2b7c8e90');
    await vi.waitFor(() => expect(imported.has('product-page')).toBe(true));
  });

  it('an address no screen has asks for nothing, and does not throw', () => {
    expect(() => preloadPageAt('/no-such-screen')).not.toThrow();
    expect(() => preloadPageAt('/')).not.toThrow();
  });
});
