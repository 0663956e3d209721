// The one lexicon of place names the planner knows without the model saying so: the 50 US states, the
// District of Columbia and Puerto Rico by USPS code and name; and the countries of the OECD, the G20
// and the EU by ISO 3166-1 alpha-2 and alpha-3 code, English name (with common other names) and
// demonym. A question saying "California", "Canadian" or "Italian" reaches the value the data holds
// ('CA', 'Canada', 'ITA') through it (value-synonyms.ts). Codes are never words for a value: many are
// grammar words ("in", "or", "no"), so a question must spell a name or a demonym.

export type PlaceFamily = 'us_state' | 'country';

export interface Place {
  readonly family: PlaceFamily;
  /** Upper-case codes: the USPS code of a state; ISO alpha-2 and alpha-3 of a country. */
  readonly codes: readonly string[];
  /** The English name first, then other names people use. */
  readonly names: readonly string[];
  /** Adjectives of the place ("Canadian"); none for states. */
  readonly demonyms: readonly string[];
}

const US_STATES = `AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|
DC District of Columbia;Washington DC|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|
KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|
MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|
ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|PR Puerto Rico|RI Rhode Island|SC South Carolina|
SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming`;

// alpha-2 alpha-3 | names | demonyms
const COUNTRIES = `AR ARG|Argentina|Argentine;Argentinian
AU AUS|Australia|Australian
AT AUT|Austria|Austrian
BE BEL|Belgium|Belgian
BR BRA|Brazil|Brazilian
BG BGR|Bulgaria|Bulgarian
CA CAN|Canada|Canadian
CL CHL|Chile|Chilean
CN CHN|China|Chinese
CO COL|Colombia|Colombian
CR CRI|Costa Rica|Costa Rican
HR HRV|Croatia|Croatian
CY CYP|Cyprus|Cypriot
CZ CZE|Czechia;Czech Republic|Czech
DK DNK|Denmark|Danish
EE EST|Estonia|Estonian
FI FIN|Finland|Finnish
FR FRA|France|French
DE DEU|Germany|German
GR GRC|Greece|Greek
HU HUN|Hungary|Hungarian
IS ISL|Iceland|Icelandic
IN IND|India|Indian
ID IDN|Indonesia|Indonesian
IE IRL|Ireland|Irish
IL ISR|Israel|Israeli
IT ITA|Italy|Italian
JP JPN|Japan|Japanese
KR KOR|South Korea;Korea|Korean
LV LVA|Latvia|Latvian
LT LTU|Lithuania|Lithuanian
LU LUX|Luxembourg|Luxembourgish
MT MLT|Malta|Maltese
MX MEX|Mexico|Mexican
NL NLD|Netherlands;Holland|Dutch
NZ NZL|New Zealand|
NO NOR|Norway|Norwegian
PL POL|Poland|Polish
PT PRT|Portugal|Portuguese
RO ROU|Romania|Romanian
RU RUS|Russia|Russian
SA SAU|Saudi Arabia|Saudi
SK SVK|Slovakia|Slovak
SI SVN|Slovenia|Slovenian;Slovene
ZA ZAF|South Africa|South African
ES ESP|Spain|Spanish
SE SWE|Sweden|Swedish
CH CHE|Switzerland|Swiss
TR TUR|Turkey;Turkiye|Turkish
GB GBR|United Kingdom;UK;Great Britain;Britain|British
US USA|United States;United States of America;USA|American`;

const list = (text: string | undefined): string[] => (text ? text.split(';').filter((item) => item !== '') : []);

export const PLACES: readonly Place[] = [
  ...US_STATES.replace(/\n/g, '')
    .split('|')
    .map((entry): Place => {
      const [code, ...name] = entry.trim().split(' ');
      return { family: 'us_state', codes: [code!], names: list(name.join(' ')), demonyms: [] };
    }),
  ...COUNTRIES.split('\n').map((line): Place => {
    const [codes, names, demonyms] = line.split('|');
    return { family: 'country', codes: codes!.split(' '), names: list(names), demonyms: list(demonyms) };
  }),
];

/** Words of a dimension that say which family its codes belong to when the codes alone do not. */
export const FAMILY_WORDS: Readonly<Record<PlaceFamily, ReadonlySet<string>>> = {
  us_state: new Set(['state', 'states', 'province']),
  country: new Set(['country', 'countries', 'nation', 'nationality', 'origin']),
};
