// A freight model with role-playing joins: regions joined twice from shipments, as the place shipped
// from and the place shipped to (ship_from, ship_to), and countries behind both roles.
export const FREIGHT_CML = `
node shipments {
  connection: warehouse
  table: freight.shipments
  dimension id { type: number  primary_key: true }
  dimension from_region_id { type: number  hidden: true }
  dimension to_region_id { type: number  hidden: true }
  dimension carrier_id { type: number  hidden: true }
  dimension shipped_at { type: timestamp }
  measure shipment_count { type: count }
  measure weight { type: sum  sql: \${TABLE}.weight_kg }
  join ship_from: regions {
    relationship: many_to_one
    synonyms: [origin, "Herkunft"]
    on: \${TABLE}.from_region_id = \${ship_from.id}
  }
  join ship_to: regions {
    relationship: many_to_one
    synonyms: [destination, "Ziel"]
    on: \${shipments.to_region_id} = \${ship_to.id}
  }
  join carriers { relationship: many_to_one  on: \${carrier_id} = \${carriers.id} }
}

node regions {
  connection: warehouse
  table: freight.regions
  dimension id { type: number  primary_key: true }
  dimension code { type: string }
  dimension name { type: string }
  dimension country_id { type: number  hidden: true }
  dimension zone { type: string }
  measure region_count { type: count }
  join countries { relationship: many_to_one  on: \${country_id} = \${countries.id} }
  data_key zone { dimension: zone  attribute: zone }
}

node countries {
  connection: warehouse
  table: freight.countries
  dimension id { type: number  primary_key: true }
  dimension name { type: string }
}

node carriers {
  connection: warehouse
  table: freight.carriers
  dimension id { type: number  primary_key: true }
  dimension name { type: string }
}

reveal freight {
  domain: logistics
  base: shipments
  time: shipped_at
  metric shipments { measure: shipment_count }
  metric weight { measure: weight }
  metric destination_regions { measure: ship_to.region_count }
}
`;
