import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '../../lib/message-text.ts';

/** What a control needs to be tied to its label, hint and error. */
interface FieldControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
  'aria-required': boolean | undefined;
}

interface FieldProps {
  id: string;
  label: ReactNode;
  /** A validation code (translated through `validation.<CODE>`) or ready text. */
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  /** Shows 'Optional' beside the label of a field that is not required (spec §4). */
  showOptional?: boolean;
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, the control, and the error under it, wired with aria-invalid and aria-describedby. */
export function Field({ id, label, error, hint, required, showOptional = false, children }: FieldProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      {/* The marks sit beside the label, not in it, so the label's text is exactly the field's name. */}
      <div className="flex items-baseline gap-1">
        <label htmlFor={id} className="text-sm font-semibold text-slate-700 dark:text-slate-200">
          {label}
        </label>
        {required && (
          <span className="text-sm text-red-600 dark:text-red-400" aria-hidden="true">
            *
          </span>
        )}
        {!required && showOptional && (
          <span className="ms-auto text-xs text-slate-500 dark:text-slate-400">{t('common.optional')}</span>
        )}
      </div>
      {children({
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
        'aria-required': required || undefined,
      })}
      {hint && !error && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-600 dark:text-red-400">
          {messageText(error)}
        </p>
      )}
    </div>
  );
}
