//! One module per screen.

pub(crate) mod callback;
pub(crate) mod campaigns;
pub(crate) mod catalog;
pub(crate) mod home;
pub(crate) mod not_found;
pub(crate) mod sends;
pub(crate) mod signin;
pub(crate) mod teams;
pub(crate) mod users;
