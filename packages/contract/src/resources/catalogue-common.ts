import { z } from 'zod';
import { idField, recordStatusField, timestampField } from '../resource-kit/fields.ts';

/** The fields every catalogue record has beside its own. */
export const catalogueRecordFields = {
  id: idField,
  code: z.string(),
  createdAt: timestampField,
  updatedAt: timestampField,
};
export const statusRecordFields = { ...catalogueRecordFields, status: recordStatusField };

/** Record fields the catalogue's lists sort by everywhere. */
export const commonSorts = ['code', 'name', 'createdAt'] as const;
