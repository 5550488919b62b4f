import { joinList } from '@dukkan/contract';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A record saved from inside a form that is still being edited ("New unit" under a product). */
interface KeptRecord {
  /** What it is, as the reader says it ("measurement unit"). */
  entity: string;
  /** Its name in the reader's language. */
  name: string;
}

/** Tells the forms around a control that it saved a record; none outside a form. */
const ReportKeptRecord = createContext<(record: KeptRecord) => void>(() => undefined);

/** What a control that saves a record on its own ("New …") calls once it is saved. */
export const useReportKeptRecord = () => useContext(ReportKeptRecord);

/**
 * The records saved meanwhile in a form (a page or a dialog) and in the forms inside it: they
 * stay saved whatever becomes of the form, and leaving it says so. `records` lists them in the
 * order they were saved; `report` is what `KeptRecordsScope` hands the controls inside the form;
 * `clear` forgets them (once the form is saved).
 */
export function useKeptRecords() {
  const parent = useContext(ReportKeptRecord);
  const [records, setRecords] = useState<readonly KeptRecord[]>([]);
  const report = useCallback(
    (record: KeptRecord) => {
      setRecords((current) => [...current, record]);
      // A dialog's form is inside a page's (or another dialog's): theirs were edited meanwhile too.
      parent(record);
    },
    [parent],
  );
  const clear = useCallback(() => setRecords([]), []);
  return { records, report, clear };
}

/** Wraps a form: the records its controls save are told to `report` (from `useKeptRecords`). */
export function KeptRecordsScope({
  report,
  children,
}: {
  report: (record: KeptRecord) => void;
  children: ReactNode;
}) {
  return <ReportKeptRecord.Provider value={report}>{children}</ReportKeptRecord.Provider>;
}

/** The sentence that says which records are kept when a form's changes are discarded; null for none. */
export function KeptRecordsNote({ records }: { records: readonly KeptRecord[] }) {
  const { t, i18n } = useTranslation();
  const text = useMemo(
    () =>
      joinList(
        records.map((record) => t('dialog.keptRecord', { entity: record.entity, name: record.name })),
        i18n.language,
      ),
    [records, t, i18n.language],
  );
  if (records.length === 0) return null;
  return <>{t('dialog.keptRecords', { count: records.length, records: text })}</>;
}
