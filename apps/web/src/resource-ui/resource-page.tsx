import type { ResourceDefinition } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import type { UseOperationNotice } from './operation-notice.ts';
import { ResourceScreen } from './resource-screen.tsx';

/**
 * The page of a simple resource: its declaration on the generic screen, titled `nav.<key>`, with
 * the hook the app declares for it, if any (`app/operation-notices.ts`).
 */
export function ResourcePage({
  definition,
  useOperationNotice,
}: {
  definition: ResourceDefinition;
  useOperationNotice?: UseOperationNotice;
}) {
  const { t } = useTranslation();
  return (
    <ResourceScreen
      definition={definition}
      title={t(`nav.${definition.key}` as never) as string}
      useOperationNotice={useOperationNotice}
    />
  );
}
