import type { CurrentUser } from '@dukkan/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/card.tsx';
import { TextLink } from '../../components/ui/text-link.tsx';
import { queryKeys } from '../../lib/query-keys.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { StepUp } from './step-up.tsx';

function StepUpToWorkspace({ workspace }: { workspace: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <>
      <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">
        {t('secondFactorPrompt.stepUpBody', { workspace })}
      </p>
      <div className="mt-6">
        {/* The calls refused before are made again under the stepped-up session. */}
        <StepUp
          onSteppedUp={() =>
            queryClient.invalidateQueries({
              predicate: (query) => query.queryKey[0] !== queryKeys.currentUser[0],
            })
          }
        />
      </div>
    </>
  );
}

/**
 * What a workspace that requires a second factor shows a session that has not used one, instead
 * of its pages: the way to enrol (the profile's Security) or the second step (a step-up).
 */
export function SecondFactorPrompt({ user, workspace }: { user: CurrentUser; workspace: string }) {
  const { t } = useTranslation();
  useDocumentTitle(t('secondFactorPrompt.title'));
  return (
    <main id="main-content" className="grid flex-1 place-items-start justify-center px-4 py-10 sm:py-16">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <h1 className="text-lg font-semibold text-slate-900 dark:text-white">
          {t('secondFactorPrompt.title')}
        </h1>
        {user.hasSecondFactor ? (
          <StepUpToWorkspace workspace={workspace} />
        ) : (
          <>
            <p className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">
              {t('secondFactorPrompt.enrolBody', { workspace })}
            </p>
            <p className="mt-6">
              <TextLink to="/profile#security">{t('secondFactorPrompt.enrol')}</TextLink>
            </p>
          </>
        )}
        {/* The page's header (and its user menu) is not drawn here: signing out stays at hand. */}
        <p className="mt-6 border-t border-slate-200 pt-4 text-center text-sm dark:border-slate-800">
          <TextLink to="/logout">{t('secondFactorPrompt.signOut')}</TextLink>
        </p>
      </Card>
    </main>
  );
}
