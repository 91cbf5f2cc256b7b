//! One module per page.

mod account;
mod landing;
mod not_found;
mod play;

pub use account::Account;
pub use landing::Landing;
pub use not_found::NotFound;
pub use play::Play;
