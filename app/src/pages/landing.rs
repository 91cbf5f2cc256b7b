//! The home page: what Gapwise is for, and informed consent before play.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::api::StartPlaying;
use crate::components::ActionError;

#[component]
pub fn Landing() -> impl IntoView {
    let start = ServerAction::<StartPlaying>::new();
    let query = use_query_map();
    let erased = move || query.read().get("erased").is_some();
    view! {
        <Show when=erased>
            <p class="ok" role="status">"Everything we stored about you has been erased."</p>
        </Show>
        <section class="intro">
            <h1>"Can you tell words apart by their company?"</h1>
            <p>
                "Gapwise is a research game. You see sentences in which one word was replaced by a blank, "
                "and two candidate words. Pick the one that was there. Some pairs are easy; some are so close "
                "that people and language models alike get them wrong."
            </p>
            <p>
                "Researchers compare your answers with those of language models to learn how much of a "
                "word's meaning is in the contexts it appears in."
            </p>
        </section>
        <section class="consent" aria-labelledby="consent-title">
            <h2 id="consent-title">"Before you play"</h2>
            <ul>
                <li>"You play under a random pseudonym. We ask for no name and no e-mail address."</li>
                <li>"We record which word you chose, whether it was right, and how long you took."</li>
                <li>"Anonymised answers are shared with researchers under CC BY-SA 4.0. They never contain your IP address or when you played."</li>
                <li>"Taking part is voluntary; you can stop at any time. On " <a href="/my-data">"My data"</a>
                    " you can see everything stored about you, download it, and erase all of it."</li>
            </ul>
            <ActionForm action=start attr:class="consent-form">
                <label class="check">
                    <input type="checkbox" name="consent" value="yes" required/>
                    " I have read the above and agree to take part."
                </label>
                <button type="submit" class="primary" id="start">"Play"</button>
            </ActionForm>
            <ActionError value=start.value()/>
        </section>
    }
}
