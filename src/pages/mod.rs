//! One module per screen.

pub mod callback;
pub mod campaigns;
pub mod catalog;
pub mod home;
pub mod not_found;
pub mod sends;
pub mod signin;
pub mod teams;
pub mod users;
