import {
  pickLocalized,
  type VariationTypeInput,
  type VariationTypeRecord,
  variationTypesResource,
} from '@dukkan/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogBody, DialogFooter } from '../../components/ui/dialog.tsx';
import { ResourceForm } from '../../resource-ui/form/resource-form.tsx';
import {
  useResourceAccess,
  useResourceMutations,
  useResourceRecord,
} from '../../resource-ui/use-resource.ts';
import { placeNameRefusal } from './name-refusals.ts';
import { VariationValuesEditor } from './variation-values-editor.tsx';

/**
 * A variation type and its values in one dialog: the type's code and name (saved with its own
 * button, for those who may edit Variations) above its values, which are edited in place. The
 * type is read afresh (its record lists its values), so each change of a value shows at once.
 */
export function VariationTypeDialog({
  type: listed,
  onClose,
}: {
  type: VariationTypeRecord;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const form = variationTypesResource.form;
  if (!form) throw new Error('variationTypes declares no form');
  const { allows } = useResourceAccess(variationTypesResource);
  const { update } = useResourceMutations(variationTypesResource, {
    alsoInvalidateResources: ['variationValues'],
  });
  const type = useResourceRecord(variationTypesResource, listed.id).data ?? listed;
  const name = pickLocalized(type.name, i18n.language);

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('resourceList.editTitle', { name })}
      size="lg"
    >
      <DialogBody className="space-y-6">
        {allows('update') && (
          <section aria-labelledby={headingId} className="space-y-3">
            <h3 id={headingId} className="sr-only">
              {t('resources.variationTypes.one')}
            </h3>
            <ResourceForm
              fields={form.fields}
              schema={form.schema}
              defaultValues={form.values(listed)}
              recordId={listed.id}
              submitLabel={t('variations.saveType')}
              onSubmit={async (values, methods) => {
                const input = values as VariationTypeInput;
                try {
                  await update.mutateAsync({ id: listed.id, input });
                } catch (error) {
                  placeNameRefusal(error, methods.setError, input.name);
                }
              }}
            />
          </section>
        )}
        <VariationValuesEditor type={type} />
      </DialogBody>
      <DialogFooter>
        <Button variant="secondary" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
