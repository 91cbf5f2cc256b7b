//! Sign-in for researchers and admins (accounts are made with `gapwise add-staff`).

use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::StaffLogin;
use crate::components::ActionError;

#[component]
pub fn StaffSignIn() -> impl IntoView {
    let log_in = ServerAction::<StaffLogin>::new();
    view! {
        <Title text="Staff sign-in"/>
        <h1>"Staff sign-in"</h1>
        <p>"For researchers and admins. Players do not need an account."</p>
        <ActionForm action=log_in>
            <label>"Name " <input type="text" name="name" autocomplete="username" required/></label>
            <label>"Password " <input type="password" name="password" autocomplete="current-password" required/></label>
            <button type="submit" class="primary">"Sign in"</button>
        </ActionForm>
        <ActionError value=log_in.value()/>
    }
}
