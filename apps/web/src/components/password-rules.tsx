import { Trans } from 'react-i18next';

/** The strength rule under a new-password field; the symbol list stays left-to-right and unbroken. */
export function PasswordRules() {
  return (
    <Trans
      i18nKey="auth.newPassword.rules"
      components={{ symbols: <bdi dir="ltr" className="whitespace-nowrap" /> }}
    />
  );
}
