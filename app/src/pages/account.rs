//! The player's pseudonym, an optional password, and resuming on another device.

use leptos::prelude::*;

use crate::api::{whoami, LogIn, SetPassword};
use crate::components::{ActionError, ErrorNote};

#[component]
pub fn Account() -> impl IntoView {
    let set_password = ServerAction::<SetPassword>::new();
    let log_in = ServerAction::<LogIn>::new();
    let me = Resource::new(move || log_in.version().get(), |_| whoami());
    let saved = move || matches!(set_password.value().get(), Some(Ok(())));
    view! {
        <h1>"Your account"</h1>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match me.await {
                    Ok(Some(pseudonym)) => view! {
                        <p>"You play as " <strong class="pseudonym">{pseudonym}</strong> "."</p>
                        <h2>"Resume on another device"</h2>
                        <p>"Set a password, then sign in elsewhere with your pseudonym and it."</p>
                        <ActionForm action=set_password>
                            <label>"Password (8 characters or more) "
                                <input type="password" name="password" minlength="8" autocomplete="new-password" required/>
                            </label>
                            <button type="submit">"Save password"</button>
                        </ActionForm>
                        <Show when=saved><p class="ok" role="status">"Password saved."</p></Show>
                        <ActionError value=set_password.value()/>
                    }.into_any(),
                    Ok(None) => view! { <p>"You are not playing on this device yet."</p> }.into_any(),
                    Err(error) => view! { <ErrorNote error/> }.into_any(),
                }
            })}
        </Suspense>
        <h2>"Sign in with a pseudonym"</h2>
        <ActionForm action=log_in>
            <label>"Pseudonym " <input type="text" name="pseudonym" autocomplete="username" required/></label>
            <label>"Password " <input type="password" name="password" autocomplete="current-password" required/></label>
            <button type="submit">"Sign in"</button>
        </ActionForm>
        <ActionError value=log_in.value()/>
    }
}
