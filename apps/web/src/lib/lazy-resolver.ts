import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver whose code (the zod schema and zod itself) is fetched on first use. The login
 * page uses it to keep zod out of the JavaScript needed to show the page; `preload()` starts the
 * download as soon as the user starts filling the form.
 */
export function createLazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>) {
  let loading: Promise<Resolver<T>> | undefined;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<T> = async (values, context, options) =>
    (await preload())(values, context, options);
  return { resolver, preload: () => void preload().catch(() => undefined) };
}
