import { isImportableResource, type ResourceDefinition } from '@dukkan/contract';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UploadIcon } from '../components/ui/action-icons.tsx';
import { Button } from '../components/ui/button.tsx';
import { lazyComponent } from '../lib/lazy-component.tsx';
import { useResourceAccess } from './use-resource.ts';

// The dialog (Radix's layers, the file upload, the report table) in a chunk of its own, asked for
// when the button is first pressed: a list page shows its rows without it.
const ImportDialog = lazyComponent(() => import('./import-dialog-panel.tsx').then((m) => m.ImportDialog));

/**
 * The list's Import button and dialog: pick a CSV or Excel file, check it (the server's dry run,
 * which changes nothing and lists every row and column to fix), then import it in one go. Shown
 * where the resource is importable and the member may add or edit its records.
 */
export function ImportButton({
  definition,
  workspaceId,
}: {
  definition: Pick<ResourceDefinition, 'key' | 'path' | 'permission' | 'verbs' | 'importable'>;
  workspaceId: string;
}) {
  const { t } = useTranslation();
  const { allows } = useResourceAccess(definition);
  const [open, setOpen] = useState(false);
  if (!isImportableResource(definition) || !(allows('create') || allows('update'))) return null;
  return (
    <>
      <Button
        variant="secondary"
        onClick={() => setOpen(true)}
        // Asked for as the pointer or the focus reaches the button, so it usually opens at once.
        onPointerEnter={() => void ImportDialog.preload().catch(() => undefined)}
        onFocus={() => void ImportDialog.preload().catch(() => undefined)}
      >
        <UploadIcon className="size-4" />
        {t('resourceList.import.button')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ImportDialog definition={definition} workspaceId={workspaceId} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
