import { formatDate, formatTime, localDate } from '@dukkan/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSelectedWorkspaceIfAny } from './workspace-context.tsx';

/**
 * The selected workspace's time zone (its settings), in which its dates are shown and its "today"
 * is reckoned; undefined outside the signed-in shell, where the browser's own zone is used.
 */
export function useWorkspaceTimeZone(): string | undefined {
  return useSelectedWorkspaceIfAny()?.timeZone;
}

/** Today (`YYYY-MM-DD`) in the selected workspace's time zone, else in the browser's. */
export function useWorkspaceToday(): string {
  const timeZone = useWorkspaceTimeZone();
  return localDate(new Date(), timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/**
 * The contract's date and time formats in the current language (ar → ar-EG, else en-US): an
 * instant as the date and time it is in the selected workspace's time zone, so a due date reads
 * as its mail says; a calendar day (`YYYY-MM-DD`) as that day.
 */
export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const timeZone = useWorkspaceTimeZone();
  return useMemo(
    () => ({
      formatDate: (value: Date | string | number) => formatDate(value, language, timeZone),
      formatTime: (value: Date | string | number) => formatTime(value, language, timeZone),
    }),
    [language, timeZone],
  );
}
