import { useTranslation } from 'react-i18next';
import { EmptyState, Page } from '../../components/page.tsx';
import { HammerIcon } from '../../components/ui/icons.tsx';

/** A screen whose page arrives in a later milestone: its title and an honest note, no sample data. */
export function ComingSoonPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Page title={title}>
      <EmptyState icon={<HammerIcon />} title={t('shell.comingSoon')} />
    </Page>
  );
}
