// Small invented catalogs for readings the class and unseen sets taught the planner, written in other
// domains and other words than those sets: a clinic's appointments (a value spelt with grammar words,
// a share the model declares, patients described by a clause) and a courier's parcels (two roles of
// one place, units after "per", verbs of the event that dates a row). Values are what the caller
// would look up from the data.
import { buildCatalogIndex, type CatalogIndex } from '../../src/core/answer/catalog-index.js';
import { planOffline } from '../../src/core/answer/offline-planner.js';
import type { AnswerPlan } from '../../src/core/answer/plan.js';
import { compileModel } from '../../src/core/cml/index.js';

const CML = `
node appointments {
  label: "Appointments"
  description: "One row per appointment booked at the clinic."
  connection: wh
  table: clinic.appointments
  dimension id           { type: number  primary_key: true  hidden: true }
  dimension status       { type: string  label: "Appointment status" }
  dimension patient_type { type: string  label: "Patient type" }
  dimension channel      { type: string  label: "Booking channel" }
  dimension department   { type: string  label: "Department" }
  dimension plan         { type: string  label: "Insurance plan" }
  dimension scheduled_at { type: timestamp  label: "Scheduled time" }
  dimension minutes      { type: number  hidden: true }
  dimension fee          { type: number  hidden: true }
  dimension reimbursed   { type: number  hidden: true }
  measure appointment_count { type: count }
  measure total_minutes     { type: sum  sql: \${minutes} }
  measure total_fees        { type: sum  sql: \${fee} }
  measure total_reimbursed  { type: sum  sql: \${reimbursed} }
  measure online_count {
    type: count
    filter: \${channel} = 'online'
  }
  measure online_share { type: ratio  numerator: online_count  denominator: appointment_count }
  measure walk_in_minutes {
    type: sum  sql: \${minutes}
    filter: \${channel} = 'walk-in'
  }
  measure walk_in_time_share { type: ratio  numerator: walk_in_minutes  denominator: total_minutes }
}
node parcels {
  label: "Parcels"
  description: "One row per parcel carried."
  connection: wh
  table: courier.parcels
  dimension id                { type: number  primary_key: true  hidden: true }
  dimension sender_country    { type: string  label: "Sender country" }
  dimension recipient_country { type: string  label: "Recipient country" }
  dimension pickup_city       { type: string  label: "Pickup city" }
  dimension dropoff_city      { type: string  label: "Drop-off city" }
  dimension service           { type: string  label: "Service"  description: "express, standard or same-day." }
  dimension outcome           { type: string  label: "Outcome" }
  dimension depot             { type: string  label: "Depot"  description: "The depot handling the parcel." }
  dimension shipped_at        { type: timestamp  label: "Shipping time" }
  dimension weight            { type: number  hidden: true }
  dimension km                { type: number  hidden: true }
  dimension charge            { type: number  hidden: true }
  dimension fuel              { type: number  hidden: true }
  measure parcel_count  { type: count }
  measure total_weight  { type: sum  sql: \${weight} }
  measure total_km      { type: sum  sql: \${km} }
  measure total_charged { type: sum  sql: \${charge} }
  measure total_fuel    { type: sum  sql: \${fuel} }
  measure max_weight    { type: max  sql: \${weight} }
  measure failed_count {
    type: count
    filter: \${outcome} = 'failed delivery'
  }
}
node games {
  label: "Games"
  description: "One row per basketball game of the season."
  connection: wh
  table: hoops.games
  dimension id        { type: number  primary_key: true  hidden: true }
  dimension home_club { type: string  label: "Home club" }
  dimension away_club { type: string  label: "Away club" }
  dimension tipoff_at { type: timestamp  label: "Tip-off" }
  dimension home_pts  { type: number  hidden: true }
  dimension away_pts  { type: number  hidden: true }
  dimension fouls     { type: number  hidden: true }
  measure game_count  { type: count }
  measure point_total { type: sum  sql: \${home_pts} + \${away_pts} }
  measure home_points { type: sum  sql: \${home_pts} }
  measure away_points { type: sum  sql: \${away_pts} }
  measure foul_total  { type: sum  sql: \${fouls} }
}
reveal hoops {
  domain: sport
  base: games
  time: games.tipoff_at
  metric games { label: "Games"  description: "Games played."  unit: count  measure: games.game_count }
  metric points { label: "Points"  description: "Points scored by both clubs."  unit: count  measure: games.point_total }
  metric home_points { label: "Home points"  description: "Points scored by the home club."  unit: count  measure: games.home_points }
  metric away_points { label: "Away points"  description: "Points scored by the visiting club."  unit: count  measure: games.away_points }
  metric fouls { label: "Fouls"  description: "Fouls called by the referees."  unit: count  measure: games.foul_total }
}
reveal clinic {
  domain: care
  base: appointments
  time: appointments.scheduled_at
  metric appointments { label: "Appointments"  description: "Appointments booked."  unit: count  measure: appointments.appointment_count }
  metric consultation_time { label: "Consultation time"  description: "Minutes spent with the patient."  unit: minutes  synonyms: ["minutes seen"]  measure: appointments.total_minutes }
  metric fees { label: "Fees billed"  description: "Fees billed to patients, in US dollars."  unit: usd  synonyms: [fees, "amount billed"]  measure: appointments.total_fees }
  metric reimbursements { label: "Insurance reimbursements"  description: "What insurers paid back, in US dollars."  unit: usd  synonyms: ["amount reimbursed"]  measure: appointments.total_reimbursed }
  metric online_share { label: "Online share"  description: "Appointments booked online over all appointments."  format: percent  synonyms: ["share of online bookings"]  measure: appointments.online_share }
  metric walk_in_share { label: "Walk-in share"  description: "Consultation time of walk-in appointments over all consultation time."  format: percent  measure: appointments.walk_in_time_share }
}
reveal courier {
  domain: delivery
  base: parcels
  time: parcels.shipped_at
  metric parcels { label: "Parcels"  description: "Parcels carried."  unit: count  synonyms: [packets]  measure: parcels.parcel_count }
  metric weight { label: "Weight carried"  description: "Gross weight of the parcels, in kilograms."  unit: kg  synonyms: ["kilograms carried"]  measure: parcels.total_weight }
  metric distance { label: "Distance driven"  description: "Kilometres covered by the vans."  unit: km  measure: parcels.total_km }
  metric charges { label: "Delivery charges"  description: "What senders were charged, in US dollars."  unit: usd  synonyms: ["amount charged"]  measure: parcels.total_charged }
  metric fuel_cost { label: "Fuel cost"  description: "Fuel bought for the vans, in US dollars."  unit: usd  measure: parcels.total_fuel }
  metric largest_parcel { label: "Largest parcel"  description: "Weight of the heaviest parcel, in kilograms."  unit: kg  measure: parcels.max_weight }
  metric failed_deliveries { label: "Failed deliveries"  description: "Parcels the driver could not hand over."  unit: count  measure: parcels.failed_count }
}
`;

const VALUES: Readonly<Record<string, ReadonlyMap<string, readonly string[]>>> = {
  clinic: new Map([
    ['status', ['attended', 'cancelled', 'no-show']],
    ['patient_type', ['insured', 'self-pay']],
    ['channel', ['online', 'phone', 'walk-in']],
    ['department', ['cardiology', 'dermatology', 'pediatrics']],
    ['plan', ['all-in', 'basic']],
  ]),
  hoops: new Map([
    ['home_club', ['Hawks', 'Owls', 'Bears', 'PAR']],
    ['away_club', ['Hawks', 'Owls', 'Bears', 'PAR']],
  ]),
  courier: new Map([
    ['sender_country', ['Spain', 'France', 'Portugal']],
    ['recipient_country', ['Spain', 'France', 'Portugal']],
    ['pickup_city', ['Lisbon', 'Porto', 'Madrid']],
    ['dropoff_city', ['Lisbon', 'Porto', 'Madrid']],
    ['service', ['express', 'standard', 'same-day']],
    ['outcome', ['delivered', 'failed delivery']],
    ['depot', ['North', 'South']],
  ]),
};
const NONE: ReadonlyMap<string, readonly string[]> = new Map();

export const readingIndex: CatalogIndex = buildCatalogIndex(compileModel([{ path: 'readings.cml', content: CML }]).model!);
export const readingValues = (reveal: string): ReadonlyMap<string, readonly string[]> => VALUES[reveal] ?? NONE;
export const planReading = (question: string): AnswerPlan => planOffline(question, readingIndex, { values: readingValues });
