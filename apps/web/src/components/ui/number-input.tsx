import { parseNumberInput } from '@dukkan/contract';
import { cn } from '../../lib/class-names.ts';
import { Input, type InputProps } from './input.tsx';

/**
 * A number box's text as a number, Arabic-Indic digits and separators included (`١٢٫٥` is 12.5);
 * an empty box is "no value" (so zod says Required), not 0, and anything else NaN. The
 * `setValueAs` of every number box: `register(name, { setValueAs: numberFromInput })`.
 */
export const numberFromInput = (value: unknown) =>
  typeof value === 'number' ? value : value == null ? undefined : parseNumberInput(String(value));

/**
 * A number box, left to right. It is a text box: a native number input takes the browser
 * locale's digits only and reads '' for anything else, so Arabic-Indic digits typed on a Latin
 * locale were lost.
 */
export function NumberInput({ className, ...props }: Omit<InputProps, 'type'>) {
  return (
    <Input {...props} type="text" inputMode="decimal" dir="ltr" className={cn('text-start', className)} />
  );
}
