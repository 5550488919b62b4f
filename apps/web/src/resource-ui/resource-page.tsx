import type { ResourceDefinition } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { ResourceScreen } from './resource-screen.tsx';

/** The page of a simple resource: its declaration on the generic screen, titled `nav.<key>`. */
export function ResourcePage({ definition }: { definition: ResourceDefinition }) {
  const { t } = useTranslation();
  return <ResourceScreen definition={definition} title={t(`nav.${definition.key}` as never) as string} />;
}
