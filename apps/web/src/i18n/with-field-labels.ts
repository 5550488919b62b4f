/** The signed-in texts with the contract's field labels as `resources.<key>.fields`. */
export type WithFieldLabels<Texts extends { resources: object }, Labels> = Omit<Texts, 'resources'> & {
  resources: Texts['resources'] & { [Key in keyof Labels]: { fields: Labels[Key] } };
};

/**
 * Puts a language's field labels (`packages/contract/src/texts/field-labels.<language>.json`,
 * the one source of the fields' names, which the server's spreadsheets use too) into its
 * signed-in texts at `resources.<key>.fields`, where the lists, forms and audit entries read them.
 */
export function withFieldLabels<Texts extends { resources: object }, Labels extends object>(
  texts: Texts,
  labels: Labels,
): WithFieldLabels<Texts, Labels> {
  const resources: Record<string, object> = { ...(texts.resources as Record<string, object>) };
  for (const [key, fields] of Object.entries(labels)) resources[key] = { ...resources[key], fields };
  return { ...texts, resources } as WithFieldLabels<Texts, Labels>;
}
