import type { CurrentUser } from '@dukkan/contract';
import { useTranslation } from 'react-i18next';
import { TextLink } from '../../components/ui/text-link.tsx';
import { StepUp } from '../auth/step-up.tsx';

/**
 * What the portal asks of a session that has not used a second factor when the workspace requires
 * one or the application asks for one (`acr_values`): the second step, after which the sign-in
 * goes on by itself; or, for a person without a factor, where to add one. With the signed-in
 * screens' texts (the second step's), downloaded only when it is needed.
 */
export function PortalStepUp({
  user,
  application,
  onSteppedUp,
}: {
  user: CurrentUser;
  application: string;
  onSteppedUp: () => void;
}) {
  const { t } = useTranslation();
  if (!user.hasSecondFactor)
    return (
      <div role="alert" className="text-sm text-slate-600 dark:text-slate-400">
        <p>{t('oauth.stepUp.enrolBody', { app: application })}</p>
        <p className="mt-3">
          <TextLink to="/profile#security">{t('oauth.stepUp.enrol')}</TextLink>
        </p>
      </div>
    );
  return (
    <>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        {t('oauth.stepUp.body', { app: application })}
      </p>
      <StepUp onSteppedUp={onSteppedUp} />
    </>
  );
}
