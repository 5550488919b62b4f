import { type ComponentType, createContext, useContext } from 'react';

/**
 * The refusal view of spec §2 as the app composes it ('You are not authorized to access this
 * page', then links to the pages the user may open). The shared layers cannot import the app's
 * navigation, so the app provides the view here and every refusal shows the same one.
 */
export const NotAuthorizedViewContext = createContext<ComponentType | null>(null);

/** The app's refusal view; a tree without one fails loudly rather than show a dead end. */
export function NotAuthorizedView() {
  const View = useContext(NotAuthorizedViewContext);
  if (!View) throw new Error('NotAuthorizedViewContext is not provided');
  return <View />;
}
