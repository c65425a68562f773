//! Spend against budget and the sends needing attention, shared by Home and Teams: the
//! figures ([`report`]) and the walk that fills them ([`walk_job`]).

pub(crate) mod cells;
pub(crate) mod report;
pub(crate) mod walk_job;
