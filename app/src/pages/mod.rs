//! One module per page.

mod account;
mod admin;
mod landing;
mod leaderboard;
mod not_found;
mod play;
mod research;
mod staff;
mod suggest;

pub use account::Account;
pub use admin::Admin;
pub use landing::Landing;
pub use leaderboard::Leaderboard;
pub use not_found::NotFound;
pub use play::Play;
pub use research::Research;
pub use staff::StaffSignIn;
pub use suggest::Suggest;
