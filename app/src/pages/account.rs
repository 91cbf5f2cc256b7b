//! The player's pseudonym, an optional password, resuming on another device, and
//! signing out of this one.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{whoami, LogIn, LogOut, SetPassword};
use crate::components::{ActionError, Done, ErrorNote};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn Account() -> impl IntoView {
    let set_password = ServerAction::<SetPassword>::new();
    let log_in = ServerAction::<LogIn>::new();
    let log_out = ServerAction::<LogOut>::new();
    let me = Resource::new(|| (), |_| whoami());
    // a sign-in refused for its password comes back with the pseudonym typed
    let typed = use_query_map().read_untracked().get("pseudonym").unwrap_or_default();
    let i18n = use_i18n();
    view! {
        <Title text=i18n.t(msg::NAV_ACCOUNT)/>
        <h1>{i18n.t(msg::ACCOUNT_TITLE)}</h1>
        <Suspense fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match me.await {
                    Ok(Some(pseudonym)) => view! {
                        <p>{i18n.t(msg::ACCOUNT_PLAYING_AS)} " " <strong class="pseudonym">{pseudonym}</strong></p>
                        <h2>{i18n.t(msg::ACCOUNT_RESUME)}</h2>
                        <p>{i18n.t(msg::ACCOUNT_RESUME_HOW)}</p>
                        <ActionForm action=set_password>
                            <label>{i18n.t(msg::ACCOUNT_CURRENT_PASSWORD)} " "
                                <input type="password" name="current" autocomplete="current-password"/>
                            </label>
                            <label>{i18n.t(msg::ACCOUNT_NEW_PASSWORD)} " "
                                <input type="password" name="password" minlength="8" autocomplete="new-password"
                                    aria-describedby="password-hint" required/>
                            </label>
                            <p class="note" id="password-hint">{i18n.t(msg::ACCOUNT_PASSWORD_HINT)}</p>
                            <button type="submit">{i18n.t(msg::ACCOUNT_SAVE_PASSWORD)}</button>
                        </ActionForm>
                        <Done done="password" message=msg::ACCOUNT_SAVED/>
                        <ActionError value=set_password.value()/>
                        <h2>{i18n.t(msg::ACCOUNT_SIGN_OUT_TITLE)}</h2>
                        <p>{i18n.t(msg::ACCOUNT_SIGN_OUT_HOW)}</p>
                        <ActionForm action=log_out><button type="submit" class="secondary" id="sign-out">{i18n.t(msg::ACCOUNT_SIGN_OUT)}</button></ActionForm>
                        <ActionError value=log_out.value()/>
                    }.into_any(),
                    Ok(None) => view! { <p>{i18n.t(msg::ACCOUNT_NOT_PLAYING)}</p> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Suspense>
        <h2>{i18n.t(msg::ACCOUNT_SIGN_IN_TITLE)}</h2>
        <ActionForm action=log_in>
            <label>{i18n.t(msg::ACCOUNT_PSEUDONYM)} " " <input type="text" name="pseudonym" autocomplete="username" value=typed required/></label>
            <label>{i18n.t(msg::ACCOUNT_PASSWORD)} " " <input type="password" name="password" autocomplete="current-password" required/></label>
            <button type="submit">{i18n.t(msg::ACCOUNT_SIGN_IN)}</button>
        </ActionForm>
        <ActionError value=log_in.value()/>
    }
}
