type Texts = { [key: string]: string | Texts };

/**
 * A language's texts as the app ends up with them: the public file, then the signed-in file
 * added key by key (i18next's `addResourceBundle` with `deep`), so that a section both files
 * hold (`validation`) keeps the texts of each.
 */
export function mergedTexts<A extends object, B extends object>(publicTexts: A, signedInTexts: B): A & B {
  const merge = (into: Texts, from: Texts): Texts => {
    const merged: Texts = { ...into };
    for (const [key, value] of Object.entries(from)) {
      const current = merged[key];
      merged[key] = typeof value === 'object' && typeof current === 'object' ? merge(current, value) : value;
    }
    return merged;
  };
  return merge(publicTexts as Texts, signedInTexts as Texts) as A & B;
}
