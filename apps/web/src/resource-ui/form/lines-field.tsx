import { linesOf } from '@dukkan/contract';
import { get, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { controlClassName } from '../../components/ui/input.tsx';
import { cn } from '../../lib/class-names.ts';
import { FieldFrame } from './field-frame.tsx';
import { type FieldComponentProps, textOf } from './field-props.ts';
import { useFormMessageText } from './form-messages.ts';

/** The first message anywhere in an error's subtree (an item's error may sit under its `name.0.value`). */
function firstMessage(node: unknown): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const { message } = node as { message?: unknown };
  if (typeof message === 'string' && message) return message;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'ref' || key === 'type') continue;
    const found = firstMessage(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * The messages of a `lines` field: its own (too many lines), then each item's, by index. An
 * item's messages sit at `<field>.<index>…`, whether the form's schema or the server found them.
 */
function useLinesErrors(name: string): { own?: string; items: [number, string][] } {
  const { formState } = useFormContext();
  const error = get(formState.errors, name) as Record<string, unknown> | undefined;
  if (!error) return { items: [] };
  const own = typeof error.message === 'string' && error.message ? error.message : undefined;
  const items = Object.entries(error)
    .filter(([key]) => /^\d+$/.test(key))
    .map(([key, child]): [number, string | undefined] => [Number(key), firstMessage(child)])
    .filter((entry): entry is [number, string] => entry[1] !== undefined)
    .sort(([a], [b]) => a - b);
  return { own: own ?? firstMessage((error as { root?: unknown }).root), items };
}

/**
 * lines: one box, one item per line (a new variation type's values). The form's schema makes the
 * list of its non-blank lines (`linesOf`); a message of the i-th item is said as the line's own —
 * "Line 3: This type already has this value" — numbered as the lines are in the box, blank ones
 * counted, so the member finds it.
 */
export function LinesField({ field, id }: FieldComponentProps) {
  const { t } = useTranslation();
  const text = useFormMessageText();
  const { register } = useFormContext();
  const value = useWatch({ name: field.name });
  const { own, items } = useLinesErrors(field.name);
  const lines = linesOf(typeof value === 'string' ? value : '');
  const messages = [
    ...(own ? [text(own)] : []),
    ...items.map(([index, message]) =>
      t('form.lines.lineMessage', { line: lines[index]?.number ?? index + 1, message: text(message) }),
    ),
  ];
  return (
    <FieldFrame
      field={field}
      id={id}
      error={messages.length > 0 ? messages.join('\n') : undefined}
      errorContent={
        messages.length > 1 ? (
          <ul className="list-inside list-disc space-y-0.5">
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : (
          <p>{messages[0]}</p>
        )
      }
    >
      {(control) => (
        <textarea
          {...control}
          {...register(field.name)}
          rows={5}
          placeholder={field.placeholder ? textOf(t, field.placeholder) : undefined}
          disabled={field.disabled}
          // Each line in its own direction (an English name, an Arabic one, or both on one line).
          className={cn(controlClassName, 'min-h-28 resize-y py-2 leading-6 [unicode-bidi:plaintext]')}
        />
      )}
    </FieldFrame>
  );
}
