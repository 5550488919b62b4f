import { lazy, Suspense } from 'react';
import type { FieldComponentProps } from './field-props.ts';

/** The calendar (react-day-picker and its styles, ~25 KB gzip) loads only for a form with a date field. */
const DateFieldChunk = lazy(() =>
  import('./date-field.tsx').then((module) => ({ default: module.DateField })),
);

export function LazyDateField(props: FieldComponentProps) {
  return (
    <Suspense fallback={<div className="h-16" aria-busy="true" />}>
      <DateFieldChunk {...props} />
    </Suspense>
  );
}
