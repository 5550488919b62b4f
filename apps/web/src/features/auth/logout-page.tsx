import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullScreenSpinner } from '../../components/ui/full-screen-spinner.tsx';
import { signOut } from '../../lib/current-user.ts';

/**
 * `/logout`: ends the session, forgets every cached answer, then shows the login page.
 * A route of its own, outside the protected area, so the redirect never carries `from`.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    let cancelled = false;
    void signOut(queryClient).then(async () => {
      if (!cancelled) await navigate('/login', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [queryClient, navigate]);

  return <FullScreenSpinner label={t('auth.signingOut')} />;
}
