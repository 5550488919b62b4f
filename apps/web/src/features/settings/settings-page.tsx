import { useTranslation } from 'react-i18next';
import { EmptyState, Page } from '../../components/page.tsx';
import { SettingsIcon } from '../../components/ui/icons.tsx';

/** `/settings`: placeholder text only (spec §2). */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('nav.settings')}>
      <EmptyState icon={<SettingsIcon />} title={t('settings.placeholder')} />
    </Page>
  );
}
