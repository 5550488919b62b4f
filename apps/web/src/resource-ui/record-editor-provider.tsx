import { type ComponentType, type ReactNode, Suspense } from 'react';
import { lazyComponent } from '../lib/lazy-component.tsx';
import {
  type NewRecordEditorProps,
  type RecordEditor,
  RecordEditorContext,
} from './record-editor-context.ts';

// The resource editor (the form renderer, the dialog) is a chunk of its own ([0007]): it is asked
// for when a "New …" button is pointed at or focused, and a form never waits for it.
const LazyEditor = lazyComponent(() =>
  import('./resource-editor-dialog.tsx').then(
    (module) => module.NewRecordEditorDialog as ComponentType<NewRecordEditorProps>,
  ),
);

const editor: RecordEditor = {
  Editor: (props) => (
    <Suspense fallback={null}>
      <LazyEditor {...props} />
    </Suspense>
  ),
  preload: () => void LazyEditor.preload().catch(() => undefined),
};

/** Gives the fields inside it the resources' create dialog for their "New …" (see `RecordEditorContext`). */
export function RecordEditorProvider({ children }: { children: ReactNode }) {
  return <RecordEditorContext.Provider value={editor}>{children}</RecordEditorContext.Provider>;
}
