/** Spec §2/§8: a name with no registered component raises 'Unknown component: {name}'. */
export class UnknownComponentError extends Error {
  constructor(readonly componentName: string) {
    super(`Unknown component: ${componentName}`);
    this.name = 'UnknownComponentError';
  }
}

/** The component registered under `name`; throws UnknownComponentError for any other name. */
export function getRegisteredComponent<C>(registry: Readonly<Record<string, C>>, name: string): C {
  if (!Object.hasOwn(registry, name)) throw new UnknownComponentError(name);
  return registry[name] as C;
}
