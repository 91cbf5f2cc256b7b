//! One module per page.

mod account;
mod admin;
mod admin_items;
mod admin_quality;
mod crowd;
mod define;
mod friends;
mod guess;
mod landing;
mod leaderboard;
mod my_data;
mod new_words;
mod not_found;
mod play;
mod rate;
mod research;
mod staff;
mod suggest;

pub use account::Account;
pub use admin::Admin;
pub use admin_items::AdminItems;
pub use crowd::CrowdPage;
pub use define::DefinePage;
pub use friends::FriendsPage;
pub use guess::GuessPage;
pub use landing::Landing;
pub use leaderboard::Leaderboard;
pub use my_data::MyDataPage;
pub use new_words::NewWordsPage;
pub use not_found::NotFound;
pub use play::Play;
pub use rate::RatePage;
pub use research::Research;
pub use staff::StaffSignIn;
pub use suggest::Suggest;
