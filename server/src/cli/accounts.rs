//! The commands that manage staff accounts and their API tokens: `add-staff`,
//! `staff-password`, `remove-staff` and `token`.

use gapwise_store::{utc_minute, ApiToken, Store};

use super::args::TokenArgs;
use crate::error::CliError;

/// `gapwise add-staff NAME --role ROLE`: an account with the password of
/// [`read_password`].
pub(super) async fn add_staff(store: &Store, name: &str, role: &str) -> Result<(), CliError> {
    store.staff().create(name, role.parse()?, &read_password()?).await?;
    println!("{role} {name} created");
    Ok(())
}

/// `gapwise staff-password NAME`: the password of [`read_password`] for the account;
/// its sessions end.
pub(super) async fn staff_password(store: &Store, name: &str) -> Result<(), CliError> {
    store.staff().set_password(name, &read_password()?).await?;
    println!("{name}'s password changed; their sessions ended");
    Ok(())
}

/// `gapwise remove-staff NAME`.
pub(super) async fn remove_staff(store: &Store, name: &str) -> Result<(), CliError> {
    store.staff().remove(name).await?;
    println!("{name} removed, with their sessions and API tokens");
    Ok(())
}

/// `gapwise token`: revokes a token (`--revoke`), lists them (`--list`), or makes
/// one for NAME and prints it, the only time it is shown.
pub(super) async fn token(store: &Store, args: TokenArgs) -> Result<(), CliError> {
    let staff = store.staff();
    if let Some(id) = args.revoke {
        let revoked = staff.revoke_api_token(&id).await?;
        println!("revoked {} ({}, {:?})", revoked.id, revoked.staff, revoked.label);
    } else if args.list {
        println!("id\taccount\tlabel\tmade\texpires");
        for token in staff.api_tokens(args.name.as_deref()).await? {
            println!("{}", token_line(&token));
        }
    } else {
        let name = args.name.ok_or("name the staff account the token is for")?;
        println!("{}", staff.create_api_token(&name, &args.label, args.expires).await?);
    }
    Ok(())
}

/// A line of `gapwise token --list`: the token's id, account, label and times, by tabs.
fn token_line(token: &ApiToken) -> String {
    let expires = utc_minute(token.expires_at);
    let expires = if token.expires_at <= gapwise_store::now_ms() { format!("{expires} (expired)") } else { expires };
    format!("{}\t{}\t{}\t{}\t{expires}", token.id, token.staff, token.label, utc_minute(token.created_at))
}

/// The password a staff command sets: `GAPWISE_PASSWORD`, or else the first line of
/// standard input.
fn read_password() -> Result<String, CliError> {
    if let Ok(password) = std::env::var("GAPWISE_PASSWORD") {
        return Ok(password);
    }
    let mut line = String::new();
    std::io::stdin().read_line(&mut line)?;
    Ok(line.trim_end_matches(['\r', '\n']).to_owned())
}
