import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FullScreenSpinner } from '../../components/ui/full-screen-spinner.tsx';
import { apiRequest } from '../../lib/api-client.ts';
import { queryKeys } from '../../lib/query-keys.ts';

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
    const signOut = async () => {
      try {
        await apiRequest('/auth/logout');
      } catch {
        // Even if the server cannot be reached, this browser forgets the user.
      }
      if (cancelled) return;
      queryClient.clear();
      queryClient.setQueryData(queryKeys.currentUser, null);
      await navigate('/login', { replace: true });
    };
    void signOut();
    return () => {
      cancelled = true;
    };
  }, [queryClient, navigate]);

  return <FullScreenSpinner label={t('auth.signingOut')} />;
}
