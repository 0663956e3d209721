// Small invented models, none of them retail orders, for phrasing tests of the offline planner: a
// lending library, a clinic with its billing, energy meters and a bakery chain. Each comes with the
// distinct values the caller would look up from its data.
import { buildCatalogIndex, type CatalogIndex } from '../../../src/core/answer/catalog-index.js';
import { planOffline } from '../../../src/core/answer/offline-planner.js';
import type { AnswerPlan } from '../../../src/core/answer/plan.js';
import { compileModel } from '../../../src/core/cml/index.js';

const LIBRARY = `
node members {
  connection: warehouse
  table: lib.members
  dimension id { type: number  primary_key: true  hidden: true }
  dimension member_type { type: string  label: "Member type" }
  dimension district { type: string }
  dimension joined_at { type: timestamp }
  measure member_count { type: count }
}
node loans {
  connection: warehouse
  table: lib.loans
  dimension id { type: number  primary_key: true  hidden: true }
  dimension member_id { type: number  hidden: true }
  dimension branch { type: string }
  dimension genre { type: string }
  dimension status { type: string }
  dimension loaned_at { type: timestamp }
  dimension fee { type: number  hidden: true }
  measure loan_count { type: count }
  measure late_fees { type: sum  sql: \${fee} }
  measure borrowers { type: count_distinct  sql: \${member_id} }
  join members { relationship: many_to_one  on: \${loans.member_id} = \${members.id} }
}
reveal lending {
  domain: library
  label: "Lending"
  base: loans
  time: loans.loaned_at
  metric loans {
    label: "Loans"
    synonyms: [checkouts, borrowings, "préstamos", "prêts", Ausleihen, "empréstimos"]
    measure: loans.loan_count
  }
  metric late_fees {
    label: "Late fees"
    synonyms: [fines, multas, amendes, "Mahngebühren"]
    measure: loans.late_fees
  }
  metric borrowers {
    label: "Borrowers"
    synonyms: [prestatarios, emprunteurs, Entleiher, leitores]
    measure: loans.borrowers
  }
}
reveal membership {
  domain: library
  label: "Membership"
  base: members
  time: members.joined_at
  metric members {
    label: "Members"
    synonyms: [socios, membres, Mitglieder, "sócios"]
    measure: members.member_count
  }
}
`;

const CLINIC = `
node patients {
  connection: warehouse
  table: clinic.patients
  dimension id { type: number  primary_key: true  hidden: true }
  dimension age_group { type: string  label: "Age group" }
  dimension insurer { type: string }
  dimension country { type: string }
  dimension registered_at { type: timestamp }
  measure patient_count { type: count }
}
node visits {
  connection: warehouse
  table: clinic.visits
  dimension id { type: number  primary_key: true  hidden: true }
  dimension patient_id { type: number  hidden: true }
  dimension clinic { type: string }
  dimension department { type: string }
  dimension visit_type { type: string  label: "Visit type" }
  dimension outcome { type: string }
  dimension visited_at { type: timestamp }
  dimension wait_minutes { type: number  hidden: true }
  measure visit_count { type: count }
  measure average_wait { type: avg  sql: \${wait_minutes} }
  measure patients_seen { type: count_distinct  sql: \${patient_id} }
  join patients { relationship: many_to_one  on: \${visits.patient_id} = \${patients.id} }
}
node invoices {
  connection: warehouse
  table: clinic.invoices
  dimension id { type: number  primary_key: true  hidden: true }
  dimension visit_id { type: number  hidden: true }
  dimension payer { type: string }
  dimension issued_at { type: timestamp }
  dimension amount { type: number  hidden: true }
  dimension refunded_amount { type: number  hidden: true }
  measure invoice_count { type: count }
  measure billed { type: sum  sql: \${amount} }
  measure refunds { type: sum  sql: \${refunded_amount} }
  join visits { relationship: many_to_one  on: \${invoices.visit_id} = \${visits.id} }
}
reveal care {
  domain: health
  label: "Care"
  base: visits
  time: visits.visited_at
  metric visits {
    label: "Visits"
    synonyms: [appointments, consultations, consultas, Besuche]
    measure: visits.visit_count
  }
  metric average_wait {
    label: "Average wait"
    synonyms: ["wait time", "waiting time", "tiempo de espera", "temps d'attente", Wartezeit]
    measure: visits.average_wait
  }
  metric patients_seen {
    label: "Patients seen"
    synonyms: [patients, pacientes, Patienten]
    measure: visits.patients_seen
  }
}
reveal billing {
  domain: health
  label: "Billing"
  base: invoices
  time: invoices.issued_at
  metric invoices {
    label: "Invoices"
    synonyms: [facturas, factures, Rechnungen, faturas]
    measure: invoices.invoice_count
  }
  metric billed {
    label: "Amount billed"
    synonyms: [billing, "facturación"]
    measure: invoices.billed
  }
  metric refunds {
    label: "Refunds"
    synonyms: [reembolsos, remboursements, Erstattungen]
    measure: invoices.refunds
  }
}
`;

const ENERGY = `
node meters {
  connection: warehouse
  table: grid.meters
  dimension id { type: number  primary_key: true  hidden: true }
  dimension site { type: string }
  dimension tariff { type: string }
  dimension meter_type { type: string  label: "Meter type" }
  dimension installed_at { type: timestamp }
  measure meter_count { type: count }
}
node readings {
  connection: warehouse
  table: grid.readings
  dimension id { type: number  primary_key: true  hidden: true }
  dimension meter_id { type: number  hidden: true }
  dimension weather { type: string }
  dimension read_at { type: timestamp }
  dimension kwh { type: number  hidden: true }
  measure reading_count { type: count }
  measure consumption { type: sum  sql: \${kwh} }
  measure peak_demand { type: max  sql: \${kwh} }
  join meters { relationship: many_to_one  on: \${readings.meter_id} = \${meters.id} }
}
reveal energy {
  domain: energy
  label: "Energy"
  base: readings
  time: readings.read_at
  metric consumption {
    label: "Consumption"
    synonyms: [usage, kwh, consumo, consommation, Verbrauch]
    measure: readings.consumption
  }
  metric readings {
    label: "Readings"
    synonyms: [lecturas, "relevés", Ablesungen, leituras]
    measure: readings.reading_count
  }
  metric peak_demand {
    label: "Peak demand"
    synonyms: ["maximum load", "pico de demanda", "pointe", Spitzenlast]
    measure: readings.peak_demand
  }
}
`;

const BAKERY = `
node shops {
  connection: warehouse
  table: bakery.shops
  dimension id { type: number  primary_key: true  hidden: true }
  dimension city { type: string }
  dimension shop_format { type: string  label: "Format" }
}
node tills {
  connection: warehouse
  table: bakery.till_lines
  dimension id { type: number  primary_key: true  hidden: true }
  dimension shop_id { type: number  hidden: true }
  dimension product { type: string }
  dimension category { type: string }
  dimension rung_at { type: timestamp }
  dimension quantity { type: number  hidden: true }
  dimension price { type: number  hidden: true }
  measure units { type: sum  sql: \${quantity} }
  measure takings { type: sum  sql: \${price} }
  measure receipts { type: count }
  join shops { relationship: many_to_one  on: \${tills.shop_id} = \${shops.id} }
}
reveal bakery {
  domain: food
  label: "Bakery"
  base: tills
  time: tills.rung_at
  metric units_sold {
    label: "Units sold"
    synonyms: [items, pieces, unidades, "unités", "Stück", unidades]
    measure: tills.units
  }
  metric takings {
    label: "Takings"
    synonyms: [turnover, ventas, "chiffre d'affaires", Umsatz, faturamento]
    measure: tills.takings
  }
  metric receipts {
    label: "Receipts"
    synonyms: [tickets, transactions, recibos, Kassenbons]
    measure: tills.receipts
  }
}
`;

const VALUES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  lending: {
    branch: ['Central', 'Riverside', 'Hilltop'],
    genre: ['fiction', 'history', 'science', 'poetry'],
    status: ['returned', 'overdue', 'lost', 'renewed'],
    'members.member_type': ['adult', 'child', 'student'],
    'members.district': ['North', 'South', 'Old Town'],
  },
  membership: { member_type: ['adult', 'child', 'student'], district: ['North', 'South', 'Old Town'] },
  care: {
    clinic: ['Eastside', 'Harbour', 'Parkview'],
    department: ['cardiology', 'paediatrics', 'radiology'],
    visit_type: ['emergency', 'routine', 'follow-up', 'analysis'],
    outcome: ['admitted', 'discharged', 'referred', 'cancel', 'registered'],
    'patients.age_group': ['child', 'adult', 'senior'],
    'patients.insurer': ['Mutua', 'Statecare'],
    'patients.country': ['Spain', 'Portugal', 'France'],
  },
  billing: {
    payer: ['insurer', 'patient'],
    'visits.clinic': ['Eastside', 'Harbour', 'Parkview'],
    'visits.department': ['cardiology', 'paediatrics', 'radiology'],
    'visits.visit_type': ['emergency', 'routine', 'follow-up', 'analysis'],
    'visits.outcome': ['admitted', 'discharged', 'referred', 'cancel', 'registered'],
    'patients.age_group': ['child', 'adult', 'senior'],
  },
  energy: {
    weather: ['sun', 'rain', 'snow', 'wind'],
    'meters.site': ['Depot', 'Harbour', 'Campus'],
    'meters.tariff': ['day', 'night', 'flat'],
    'meters.meter_type': ['smart', 'analog'],
  },
  bakery: {
    product: ['croissant', 'baguette', 'sourdough', 'eclair'],
    category: ['bread', 'pastry', 'cake'],
    'shops.city': ['Lyon', 'Porto', 'Leipzig', 'Sevilla'],
    'shops.shop_format': ['kiosk', 'cafe', 'flagship'],
  },
};

const NONE: ReadonlyMap<string, readonly string[]> = new Map();
const valueMaps = new Map(Object.entries(VALUES).map(([reveal, fields]) => [reveal, new Map(Object.entries(fields)) as ReadonlyMap<string, readonly string[]>]));

export const DOMAIN_MODELS = { library: LIBRARY, clinic: CLINIC, energy: ENERGY, bakery: BAKERY } as const;
export type DomainName = keyof typeof DOMAIN_MODELS;

const indexes = new Map<DomainName, CatalogIndex>();

export function domainIndex(name: DomainName): CatalogIndex {
  let index = indexes.get(name);
  if (!index) {
    const { model, diagnostics } = compileModel([{ path: `${name}.cml`, content: DOMAIN_MODELS[name] }]);
    if (!model) throw new Error(`${name}: ${JSON.stringify(diagnostics)}`);
    index = buildCatalogIndex(model);
    indexes.set(name, index);
  }
  return index;
}

/** Plans `question` on the invented model `name`, with its values. */
export function ask(name: DomainName, question: string): AnswerPlan {
  return planOffline(question, domainIndex(name), { values: (reveal) => valueMaps.get(reveal) ?? NONE });
}

/** The parts of a governed plan a phrasing test checks. */
export function governed(reveal: string, metrics: string[], more: { dimensions?: string[]; filters?: Array<{ field: string; value: string | string[] }>; sort?: { field: string; direction: 'asc' | 'desc' }; limit?: number } = {}) {
  return {
    kind: 'governed',
    reveal,
    metrics,
    dimensions: more.dimensions ?? [],
    filters: (more.filters ?? []).map((filter) => ({ field: filter.field, operator: Array.isArray(filter.value) ? 'in' : 'equals', value: filter.value })),
    ...(more.sort ? { sort: more.sort } : {}),
    ...(more.limit !== undefined ? { limit: more.limit } : {}),
  };
}
