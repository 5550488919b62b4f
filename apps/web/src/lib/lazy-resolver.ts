/** What a schema check answers: the values it accepted, or the first message per field. */
type SchemaCheck<T> =
  | { values: T; errors?: undefined }
  | { values?: undefined; errors: Record<string, string> };

/** The part of a zod schema the check uses, so this file never imports zod itself. */
interface SafeParsing<T> {
  safeParse(
    values: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * A form check whose code (the zod schema and zod itself) is fetched on first use. The login page
 * uses it to keep zod out of the JavaScript needed to show the page; `preload()` starts the
 * download as soon as the user starts filling the form.
 */
export function createLazyResolver<T>(load: () => Promise<SafeParsing<T>>) {
  let loading: Promise<SafeParsing<T>> | undefined;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const check = async (values: unknown): Promise<SchemaCheck<T>> => {
    const result = (await preload()).safeParse(values);
    if (result.success) return { values: result.data };
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      errors[path] ??= issue.message;
    }
    return { errors };
  };
  return { check, preload: () => void preload().catch(() => undefined) };
}
