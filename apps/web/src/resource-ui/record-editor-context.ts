import type { ResourceDefinition } from '@dukkan/contract';
import { type ComponentType, createContext, useContext } from 'react';

/** What "New …" opens: a resource's own create dialog, over the form the field is in. */
export interface NewRecordEditorProps {
  definition: ResourceDefinition;
  title: string;
  onClose: () => void;
  /** Told the saved record before the dialog closes. */
  onSaved: (record: Record<string, unknown> & { id: string }) => void;
  /** Where the focus goes when the dialog closes, when not back to what opened it. */
  returnFocus: () => HTMLElement | null;
}

export interface RecordEditor {
  Editor: ComponentType<NewRecordEditorProps>;
  /** Starts downloading the editor's chunk (when "New …" is pointed at or focused). */
  preload: () => void;
}

/**
 * The resources' create dialog, for a field's "New …". The dialog holds a form whose fields
 * offer "New …" in turn, so the fields cannot import it: the app provides it here
 * (`RecordEditorProvider`, `record-editor-provider.tsx`).
 */
export const RecordEditorContext = createContext<RecordEditor | null>(null);

/** The provided editor; a tree without one fails loudly rather than offer a button that opens nothing. */
export function useRecordEditor(): RecordEditor {
  const editor = useContext(RecordEditorContext);
  if (!editor) throw new Error('RecordEditorContext is not provided: wrap the tree in RecordEditorProvider');
  return editor;
}
