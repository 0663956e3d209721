-- Whose data keys an evaluation read its value with. A signal changes owner when someone else redefines
-- what it watches; its history keeps the values each owner read, and shows each row only to readers
-- whose data keys give the same rows as that row's reader. Rows written before this column existed were
-- all read by the signal's owner (owners did not change then): null stands for the signal's owner.
alter table signal_evaluations add column read_as uuid;

-- Why a signal stopped by itself (its owner left, or may no longer see its vault or the scene it
-- watches): shown to every reader, unlike last_error, which can quote what was read. Cleared when the
-- signal is enabled again or taken over.
alter table signals add column stopped_reason text;
