// Small invented catalogs for the planner's safety tests: values that are also grammar words (state
// and product codes), dimensions that share a value domain under two roles (origin/destination,
// seller/buyer, home/away), in several domains. Values are what the caller would look up from data.
import { buildCatalogIndex, type CatalogIndex } from '../../src/core/answer/catalog-index.js';
import { compileModel } from '../../src/core/cml/index.js';

const CML = `
node sales {
  connection: wh
  table: shop.sales
  dimension id           { type: number  primary_key: true  hidden: true }
  dimension state        { type: string  label: "State" }
  dimension product_line { type: string  label: "Product line" }
  dimension channel      { type: string }
  dimension customer     { type: string  label: "Customer" }
  dimension sold_at      { type: timestamp }
  dimension amount       { type: number  hidden: true }
  measure sale_count { type: count }
  measure amount_sum { type: sum  sql: \${amount} }
}
node shipments {
  connection: wh
  table: freight.shipments
  dimension id               { type: number  primary_key: true  hidden: true }
  dimension origin_city      { type: string  label: "Origin city" }
  dimension destination_city { type: string  label: "Destination city" }
  dimension carrier          { type: string }
  dimension shipped_at       { type: timestamp }
  dimension cost             { type: number  hidden: true }
  measure shipment_count { type: count }
  measure cost_sum { type: sum  sql: \${cost} }
}
node trades {
  connection: wh
  table: market.trades
  dimension id        { type: number  primary_key: true  hidden: true }
  dimension seller    { type: string  label: "Seller" }
  dimension buyer     { type: string  label: "Buyer" }
  dimension traded_at { type: timestamp }
  dimension price     { type: number  hidden: true }
  measure trade_count { type: count }
  measure volume_sum  { type: sum  sql: \${price} }
}
node matches {
  connection: wh
  table: league.matches
  dimension id        { type: number  primary_key: true  hidden: true }
  dimension home_team { type: string  label: "Home team" }
  dimension away_team { type: string  label: "Away team" }
  dimension played_at { type: timestamp }
  dimension goals     { type: number  hidden: true }
  measure match_count { type: count }
  measure goal_sum    { type: sum  sql: \${goals} }
  measure goals_per_match { type: number  sql: \${goal_sum} / nullif(\${match_count}, 0) }
}
reveal retail {
  domain: retail
  base: sales
  time: sales.sold_at
  metric revenue { label: "Revenue"  synonyms: [ingresos, ventas, "chiffre d'affaires", Umsatz, receita]  measure: sales.amount_sum }
  metric sales_count { label: "Sales count"  synonyms: ["number of sales", Verkaufe]  measure: sales.sale_count }
}
reveal freight {
  domain: logistics
  base: shipments
  time: shipments.shipped_at
  metric shipments { label: "Shipments"  synonyms: [envios, expeditions, Sendungen, remessas]  measure: shipments.shipment_count }
  metric freight_cost { label: "Freight cost"  synonyms: ["costo de flete", "cout du fret", Frachtkosten, "custo do frete"]  measure: shipments.cost_sum }
}
reveal marketplace {
  domain: market
  base: trades
  time: trades.traded_at
  metric trades { label: "Trades"  synonyms: [operaciones, transactions, Geschafte, negocios]  measure: trades.trade_count }
  metric trade_volume { label: "Trade volume"  measure: trades.volume_sum }
}
reveal league {
  domain: sport
  base: matches
  time: matches.played_at
  metric matches_played { label: "Matches"  synonyms: [games, partidos, matchs, Spiele, jogos]  measure: matches.match_count }
  metric goals { label: "Goals"  synonyms: [goles, buts, Tore, gols]  measure: matches.goal_sum }
  metric goals_per_match { label: "Goals per match"  synonyms: ["goles por partido", "buts par match", "Tore pro Spiel", "gols por jogo"]  measure: matches.goals_per_match }
}
`;

const VALUES: Readonly<Record<string, ReadonlyMap<string, readonly string[]>>> = {
  retail: new Map([
    // US state codes, several of them grammar words in one of the five languages.
    ['state', ['OR', 'IN', 'WA', 'TX', 'CA', 'ME', 'DE', 'US']],
    // Product codes that read as articles and pronouns.
    ['product_line', ['THE', 'A', 'UN', 'DIE', 'ELLE', 'ES', 'Garden']],
    ['channel', ['web', 'store']],
  ]),
  freight: new Map([
    ['origin_city', ['Austin', 'Dallas', 'Lyon', 'Hamburg', 'Porto', 'Sevilla', 'New York']],
    ['destination_city', ['Austin', 'Dallas', 'Lyon', 'Hamburg', 'Porto', 'Sevilla', 'Boston']],
    ['carrier', ['Swift', 'Atlas']],
  ]),
  marketplace: new Map([
    ['seller', ['Acme', 'Globex', 'Initech']],
    ['buyer', ['Acme', 'Globex', 'Umbrella']],
  ]),
  league: new Map([
    ['home_team', ['Lions', 'Tigers', 'Bears']],
    ['away_team', ['Lions', 'Tigers', 'Bears']],
  ]),
};
const NONE: ReadonlyMap<string, readonly string[]> = new Map();

export const safetyModel = compileModel([{ path: 'safety.cml', content: CML }]).model!;
export const safetyIndex: CatalogIndex = buildCatalogIndex(safetyModel);
export const safetyValues = (reveal: string): ReadonlyMap<string, readonly string[]> => VALUES[reveal] ?? NONE;
