import type { LocationRecord } from '@dukkan/contract';
import { bothLanguages } from '../test/localized.ts';

/** A location as the resource-ui tests answer with it: a real declaration's record, closed no day. */
export const downtownLocation: LocationRecord = {
  id: '5a0c4b1e-1111-4a57-9a0e-6f1d1b9c2a02',
  code: 'LOC-1',
  name: bothLanguages('Downtown', 'وسط البلد'),
  brandId: '0b7c5c1e-4c6b-4a57-9a0e-6f1d1b9c2a01',
  openingDate: '2024-03-05',
  workingHours: [],
  address: '1 Nile St',
  phones: [{ label: 'Front desk', number: '0223456789' }],
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
