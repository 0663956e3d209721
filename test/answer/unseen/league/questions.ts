// Questions the league office, clubs and broadcasters ask. Now is 2025-06-18 15:00 UTC (the off
// season: the last match was played in May). Questions about the clubs as they stand are over every
// row, and a season names its own period.
import { ask, decline, ranked, rows, value } from '../question-helpers.js';
import type { UnseenQuestion } from '../types.js';

const Y2024 = `kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2025-01-01'`;
const HOME = 'league.matches m JOIN league.teams t ON t.code = m.home_team';
const AWAY = 'league.matches m JOIN league.teams t ON t.code = m.away_team';

export const LEAGUE_QUESTIONS: readonly UnseenQuestion[] = [
  // Simple metrics
  ask('How many matches were played in 2024?', 'en', ['simple', 'verb', 'period'], value(`SELECT count(*) FROM league.matches WHERE ${Y2024}`)),
  ask('total goals in 2024', 'en', ['simple', 'period'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE ${Y2024}`)),
  ask('average attendance in Q1 2025', 'en', ['simple', 'period'], value(`SELECT avg(attendance) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2025-01-01' AND kickoff_at < TIMESTAMP '2025-04-01'`)),
  ask('goals per game in 2024', 'en', ['simple', 'synonym', 'period'], value(`SELECT sum(home_goals + away_goals) * 1.0 / count(*) FROM league.matches WHERE ${Y2024}`)),
  ask('home win rate last year', 'en', ['simple', 'period'], value(`SELECT count(*) FILTER (WHERE home_goals > away_goals) * 1.0 / count(*) FROM league.matches WHERE ${Y2024}`)),
  ask('How many yellow cards were shown in May 2025?', 'en', ['simple', 'verb', 'period'], value(`SELECT sum(yellow_cards) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2025-05-01' AND kickoff_at < TIMESTAMP '2025-06-01'`)),
  ask('how many teams are in the league', 'en', ['simple', 'snapshot', 'no_period', 'synonym'], value(`SELECT count(*) FROM league.teams`)),
  ask('How many spectators came in 2024?', 'en', ['simple', 'verb', 'synonym', 'period'], value(`SELECT sum(attendance) FROM league.matches WHERE ${Y2024}`)),
  ask('away wins in Q4 2024', 'en', ['simple', 'period'], value(`SELECT count(*) FROM league.matches WHERE home_goals < away_goals AND kickoff_at >= TIMESTAMP '2024-10-01' AND kickoff_at < TIMESTAMP '2025-01-01'`)),

  // Breakdowns
  ask('attendance by competition in 2024', 'en', ['breakdown', 'period'], rows(`SELECT competition, sum(attendance) FROM league.matches WHERE ${Y2024} GROUP BY 1`)),
  ask('matches by referee in 2024', 'en', ['breakdown', 'null_group', 'period'], rows(`SELECT referee, count(*) FROM league.matches WHERE ${Y2024} GROUP BY 1`)),
  ask('average attendance by home team in 2024', 'en', ['breakdown', 'direction', 'joined_value', 'period'], rows(`SELECT t.name, m.home_team, avg(m.attendance) FROM ${HOME} WHERE m.${Y2024} GROUP BY 1, 2`)),
  ask('goals per month in 2024', 'en', ['breakdown', 'time_grain', 'period'], rows(`SELECT strftime(date_trunc('month', kickoff_at), '%Y-%m-%d'), sum(home_goals + away_goals) FROM league.matches WHERE ${Y2024} GROUP BY 1`)),
  ask('yellow cards by competition last year', 'en', ['breakdown', 'period'], rows(`SELECT competition, sum(yellow_cards) FROM league.matches WHERE ${Y2024} GROUP BY 1`)),
  ask('matches by result in 2024', 'en', ['breakdown', 'period'], rows(`SELECT CASE WHEN home_goals > away_goals THEN 'home win' WHEN home_goals < away_goals THEN 'away win' ELSE 'draw' END, count(*) FROM league.matches WHERE ${Y2024} GROUP BY 1`)),

  // Filters on values, with direction
  ask('how many goals did WAS score at home in 2024', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT sum(home_goals) FROM league.matches WHERE home_team = 'WAS' AND ${Y2024}`)),
  ask('away goals of DIE in 2024', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT sum(away_goals) FROM league.matches WHERE away_team = 'DIE' AND ${Y2024}`)),
  ask('attendance at UN home games in 2024', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT sum(attendance) FROM league.matches WHERE home_team = 'UN' AND ${Y2024}`)),
  ask('How many matches did THE play away in 2024?', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM league.matches WHERE away_team = 'THE' AND ${Y2024}`)),
  ask('home wins for AND in 2024', 'en', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT count(*) FROM league.matches WHERE home_team = 'AND' AND home_goals > away_goals AND ${Y2024}`)),
  ask('How many matches did LA host against POR in 2024?', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM league.matches WHERE home_team = 'LA' AND away_team = 'POR' AND ${Y2024}`)),
  ask('goals when Washington Wolves visited Derby Forge in 2024', 'en', ['filter', 'joined_value', 'multi_word_value', 'direction', 'verb', 'period'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE away_team = 'WAS' AND home_team = 'DER' AND ${Y2024}`)),
  ask('cup matches in 2024', 'en', ['filter', 'casing', 'period'], value(`SELECT count(*) FROM league.matches WHERE competition = 'Cup' AND ${Y2024}`)),
  ask('average attendance at new york harbor home games in 2024', 'en', ['filter', 'casing', 'joined_value', 'multi_word_value', 'direction', 'period'], value(`SELECT avg(attendance) FROM league.matches WHERE home_team = 'NYH' AND ${Y2024}`)),
  ask('how many matches did Anna Keller referee in 2024', 'en', ['filter', 'multi_word_value', 'verb', 'period'], value(`SELECT count(*) FROM league.matches WHERE referee = 'Anna Keller' AND ${Y2024}`)),
  // A season names its own period: the whole season, not the last 30 days.
  ask('draws in the 2023/24 season', 'en', ['filter', 'no_period'], value(`SELECT count(*) FROM league.matches WHERE season = '2023/24' AND home_goals = away_goals`)),
  ask('yellow cards in matches hosted by DER in H1 2024', 'en', ['filter', 'stop_word_value', 'direction', 'verb', 'period_half'], value(`SELECT sum(yellow_cards) FROM league.matches WHERE home_team = 'DER' AND kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2024-07-01'`)),

  // Top-N and bottom-N (a NULL group is not a member)
  ask('Which 3 home teams had the highest average attendance in 2024?', 'en', ['top_n', 'direction', 'joined_value', 'period'], ranked(`SELECT t.name, m.home_team, avg(m.attendance) AS v FROM ${HOME} WHERE m.${Y2024} GROUP BY 1, 2 ORDER BY v DESC LIMIT 3`)),
  ask('the 3 away teams with the most yellow cards in 2024', 'en', ['top_n', 'direction', 'joined_value', 'period'], ranked(`SELECT t.name, m.away_team, sum(m.yellow_cards) AS v FROM ${AWAY} WHERE m.${Y2024} GROUP BY 1, 2 ORDER BY v DESC LIMIT 3`)),
  ask('which referee handled the most matches in 2024', 'en', ['top_n', 'null_group', 'verb', 'period'], ranked(`SELECT referee, count(*) AS n FROM league.matches WHERE referee IS NOT NULL AND ${Y2024} GROUP BY 1 ORDER BY n DESC LIMIT 1`)),
  ask('the 3 home teams with the fewest home wins in 2024', 'en', ['bottom_n', 'direction', 'joined_value', 'period'], ranked(`SELECT t.name, m.home_team, count(*) FILTER (WHERE m.home_goals > m.away_goals) AS v FROM ${HOME} WHERE m.${Y2024} GROUP BY 1, 2 ORDER BY v ASC LIMIT 3`)),
  ask('which away team scored the least away goals in 2024', 'en', ['bottom_n', 'direction', 'joined_value', 'verb', 'period'], ranked(`SELECT t.name, m.away_team, sum(m.away_goals) AS v FROM ${AWAY} WHERE m.${Y2024} GROUP BY 1, 2 ORDER BY v ASC LIMIT 1`)),
  ask('top 5 home teams by attendance in 2024', 'en', ['top_n', 'direction', 'joined_value', 'period'], ranked(`SELECT t.name, m.home_team, sum(m.attendance) AS v FROM ${HOME} WHERE m.${Y2024} GROUP BY 1, 2 ORDER BY v DESC LIMIT 5`)),

  // Periods: halves, ranges, "since", in five languages
  ask('goals in the first half of 2024', 'en', ['period_half'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2024-07-01'`)),
  ask('matches H1 2025', 'en', ['period_half'], value(`SELECT count(*) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2025-01-01' AND kickoff_at < TIMESTAMP '2025-07-01'`)),
  ask('attendance from January to April 2025', 'en', ['period_range'], value(`SELECT sum(attendance) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2025-01-01' AND kickoff_at < TIMESTAMP '2025-05-01'`)),
  ask('yellow cards between March and May', 'en', ['period_range'], value(`SELECT sum(yellow_cards) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2025-03-01' AND kickoff_at < TIMESTAMP '2025-06-01'`)),
  ask('goals since March 2024', 'en', ['period_range'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-03-01' AND kickoff_at < TIMESTAMP '2025-06-19'`)),
  ask('goles en el primer semestre de 2024', 'es', ['period_half', 'synonym'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2024-07-01'`)),
  ask('affluence moyenne depuis mars 2024', 'fr', ['period_range', 'synonym'], value(`SELECT avg(attendance) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-03-01' AND kickoff_at < TIMESTAMP '2025-06-19'`)),
  ask('Tore von Januar bis Juni 2024', 'de', ['period_range', 'synonym'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-01-01' AND kickoff_at < TIMESTAMP '2024-07-01'`)),
  ask('gols no segundo semestre de 2024', 'pt', ['period_half', 'synonym'], value(`SELECT sum(home_goals + away_goals) FROM league.matches WHERE kickoff_at >= TIMESTAMP '2024-07-01' AND kickoff_at < TIMESTAMP '2025-01-01'`)),
  ask('Wie viele Spiele hatte DIE 2024 zu Hause?', 'de', ['filter', 'stop_word_value', 'direction', 'period'], value(`SELECT count(*) FROM league.matches WHERE home_team = 'DIE' AND ${Y2024}`)),
  ask('¿Cuántos partidos jugó UN como visitante en 2024?', 'es', ['filter', 'stop_word_value', 'direction', 'verb', 'period'], value(`SELECT count(*) FROM league.matches WHERE away_team = 'UN' AND ${Y2024}`)),
  ask('buts à domicile de UN en 2024', 'fr', ['filter', 'stop_word_value', 'direction', 'synonym', 'period'], value(`SELECT sum(home_goals) FROM league.matches WHERE home_team = 'UN' AND ${Y2024}`)),
  ask('empates entre marzo y mayo de 2025', 'es', ['period_range', 'synonym'], value(`SELECT count(*) FROM league.matches WHERE home_goals = away_goals AND kickoff_at >= TIMESTAMP '2025-03-01' AND kickoff_at < TIMESTAMP '2025-06-01'`)),

  // Must be declined
  decline('Who is the top scorer this season?', 'en', [], 'out_of_scope', 'no player data'),
  decline('ticket revenue in 2024', 'en', ['period'], 'out_of_scope', 'no ticketing data'),
  decline('How many points does WAS have?', 'en', ['stop_word_value'], 'out_of_scope', 'no standings'),
  decline('Which team won the league in 2024?', 'en', ['period'], 'out_of_scope', 'no standings'),
  decline('matches with more than 3 goals in 2024', 'en', ['period'], 'inexpressible', 'a numeric threshold on goals'),
  decline('matches the away team won by two goals in 2024', 'en', ['period'], 'inexpressible', 'a condition on the goal difference'),
  decline('goals scored by DIE in 2024', 'en', ['stop_word_value', 'direction', 'period'], 'ambiguous', 'home goals when DIE hosted plus away goals when DIE visited: no single filter'),
  decline('draws involving UN in 2024', 'en', ['stop_word_value', 'direction', 'period'], 'ambiguous', 'UN as host or visitor'),
  decline('matches between LA and SEA in 2024', 'en', ['stop_word_value', 'direction', 'period'], 'ambiguous', 'either club may have hosted'),
];
