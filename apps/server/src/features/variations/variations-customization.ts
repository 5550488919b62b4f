import { sql } from 'drizzle-orm';
import type { ResourceCustomization } from '../../resource-engine/storage.ts';

/**
 * What the variation resources add to their declarations: a type's record lists its values in
 * order (one aggregate per type, the values' own index).
 */
export const variationCustomizations: readonly ResourceCustomization[] = [
  {
    key: 'variationTypes',
    computed: {
      values: sql`(select coalesce(json_agg(json_build_object(
          'id', v.id, 'code', v.code,
          'name', (select coalesce(json_agg(json_build_object('locale', n.locale, 'value', n.value)), '[]'::json)
                   from (values ('en', v.name_en), ('ar', v.name_ar)) as n(locale, value) where n.value is not null),
          'position', v.position, 'status', v.status)
        order by v.position, v.created_at), '[]'::json)
        from "variation_values" v where v.type_id = "variation_types"."id")`,
    },
  },
];
