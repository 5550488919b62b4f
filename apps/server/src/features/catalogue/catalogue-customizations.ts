import { sql } from 'drizzle-orm';
import { customers } from '../../db/schema/index.ts';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * What the catalogue's resources add to their declarations: a brand's count of locations, and
 * a customer's phones kept as one text for search (array_to_string is not immutable, so a
 * generated column cannot hold it).
 */
export const catalogueCustomizations: readonly ResourceCustomization[] = [
  {
    key: 'brands',
    // Written out qualified: an unqualified "id" inside the subquery would mean the location's own id.
    computed: {
      locationsCount:
        sql<number>`(select count(*) from "locations" where "locations"."brand_id" = "brands"."id")`.mapWith(
          Number,
        ),
    },
  },
  {
    key: 'customers',
    searchedAs: { phones: customers.phonesText },
    derivedValues: (input) =>
      Array.isArray(input.phones) ? { phonesText: (input.phones as string[]).join(' ') } : {},
  },
];
