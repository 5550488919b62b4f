import { checkResource, type RegisteredResource, type ResourceDefinition, resources } from '@dukkan/contract';
import * as schema from '../db/schema/index.ts';
import { createResourceData, type ResourceData } from './data.ts';
import { bindStorage, type ResourceCustomization, resourceTableOf } from './storage.ts';

/** Every resource of the contract's registry, bound to its storage, with its data operations. */
export interface ResourceEngine {
  /** The resources the engine stores and serves. */
  served: readonly ResourceData[];
  /** Resources a feature serves with every verb's route of its own. */
  servedByFeatures: readonly ResourceDefinition[];
  /** The data operations of a served resource; throws for any other key. */
  data(key: RegisteredResource['key']): ResourceData;
}

/**
 * Binds every resource of the contract's registry: its table from `db/schema` by its key (or
 * the feature's customization), hooks and computed fields from the customizations the features
 * register. A declaration that does not hold together (`checkResource`), a resource that cannot be bound, or a customization of a resource the contract does
 * not declare, stops the server at start with a message naming it.
 */
export function createResourceEngine(
  customizations: readonly ResourceCustomization[],
  options: { now?: () => Date; registry?: readonly ResourceDefinition[] } = {},
): ResourceEngine {
  const registry = options.registry ?? (resources as readonly ResourceDefinition[]);
  const byKey = new Map<string, ResourceCustomization>();
  for (const customization of customizations) {
    if (!registry.some((definition) => definition.key === customization.key)) {
      throw new Error(
        `A customization names ${customization.key}, which the contract's registry does not declare`,
      );
    }
    if (byKey.has(customization.key)) throw new Error(`Resource ${customization.key} is customized twice`);
    byKey.set(customization.key, customization);
  }
  const served: ResourceData[] = [];
  const servedByFeatures: ResourceDefinition[] = [];
  for (const definition of registry) {
    // The declaration's own consistency (fields named by search, sort and columns), which the
    // contract leaves to where its schemas are built.
    checkResource(definition);
    const customization = byKey.get(definition.key);
    const featureVerbs = customization?.featureVerbs ?? [];
    if (definition.verbs.every((verb) => featureVerbs.includes(verb))) {
      servedByFeatures.push(definition);
      continue;
    }
    const table = resourceTableOf(definition, schema, customization);
    const storage = bindStorage(definition, table, customization);
    served.push(
      createResourceData(storage, {
        hooks: customization?.hooks,
        now: options.now,
        featureVerbs,
        exportFields: customization?.exportFields,
        exportExpansion: customization?.exportExpansion?.bind(customization),
        importExpansion: customization?.importExpansion?.bind(customization),
      }),
    );
  }
  return {
    served,
    servedByFeatures,
    data(key) {
      const found = served.find((data) => data.storage.definition.key === key);
      if (!found) throw new Error(`Resource ${key} is not served by the engine`);
      return found;
    },
  };
}
