// Aggregate and window calls written in a formula's own text, as opposed to references to measures: a
// formula that makes one aggregates source rows itself, which stored groups of a rollup cannot redo.

export const AGGREGATE_CALL =
  /\b(count|sum|avg|min|max|stddev\w*|variance|var_pop|var_samp|median|mode|percentile_\w+|approx_\w+|array_agg|string_agg|listagg|group_concat|bool_and|bool_or|any_value|first_value|last_value|row_number|rank|dense_rank|lag|lead)\s*\(/i;
