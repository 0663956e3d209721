-- A signal may watch a change: a measure over a period against the period before (or a year before),
-- or any column of a scene that compares periods. Beside the watched value, an evaluation keeps the
-- measure in both periods and the periods themselves: {"current", "comparison", "range",
-- "comparison_range"} (ranges as wall times of the workspace zone, [from, to)). Null for a watch that
-- compares nothing. The signal keeps the last one read, as it keeps last_value.
alter table signal_evaluations add column compared jsonb;
alter table signals add column last_compared jsonb;
