//! Friends and challenges: add a player by pseudonym (their proposed pairs come
//! first in your game), challenge them to ten items, and compare item by item.

use gapwise_model::{Challenge, Friend, K};
use leptos::prelude::*;
use leptos_meta::Title;

use crate::api::{friends_and_challenges, AddFriend, ChallengeFriend, RemoveFriend};
use crate::components::{ActionError, ErrorNote};
use crate::i18n::{msg, use_i18n};

#[component]
pub fn FriendsPage() -> impl IntoView {
    let add = ServerAction::<AddFriend>::new();
    let remove = ServerAction::<RemoveFriend>::new();
    let challenge = ServerAction::<ChallengeFriend>::new();
    let data = Resource::new(|| (), |_| friends_and_challenges());
    let i18n = use_i18n();
    view! {
        <Title text=i18n.t(msg::NAV_FRIENDS)/>
        <h1>{i18n.t(msg::NAV_FRIENDS)}</h1>
        <p>{i18n.t(msg::FRIENDS_INTRO)}</p>
        <ActionForm action=add attr:class="suggest">
            <label>{i18n.t(msg::ACCOUNT_PSEUDONYM)} " " <input type="text" name="pseudonym" required autocomplete="off" id="friend-name"/></label>
            <button type="submit" class="primary" id="add-friend">{i18n.t(msg::FRIENDS_ADD)}</button>
        </ActionForm>
        <ActionError value=add.value()/>
        <ActionError value=challenge.value()/>
        <ActionError value=remove.value()/>
        <Transition fallback=move || view! { <p>{i18n.t(msg::LOADING)}</p> }>
            {move || Suspend::new(async move {
                match data.await {
                    Ok((friends, challenges)) => view! {
                        <h2>{i18n.t(msg::FRIENDS_LIST)}</h2>
                        {if friends.is_empty() {
                            view! { <p class="none">{i18n.t(msg::NONE_YET)}</p> }.into_any()
                        } else {
                            view! { <ul class="friends">{friends.into_iter().map(|f| view! { <FriendLine f remove challenge/> }).collect_view()}</ul> }.into_any()
                        }}
                        <h2>{i18n.t(msg::FRIENDS_CHALLENGES)}</h2>
                        {if challenges.is_empty() {
                            view! { <p class="none">{i18n.t(msg::NONE_YET)}</p> }.into_any()
                        } else {
                            view! { <ul class="challenges">{challenges.into_iter().map(|c| view! { <ChallengeLine c/> }).collect_view()}</ul> }.into_any()
                        }}
                    }.into_any(),
                    Err(error) => view! { <ErrorNote error/> <p><a href="/">{i18n.t(msg::START_HOME)}</a></p> }.into_any(),
                }
            })}
        </Transition>
    }
}

#[component]
fn FriendLine(f: Friend, remove: ServerAction<RemoveFriend>, challenge: ServerAction<ChallengeFriend>) -> impl IntoView {
    let i18n = use_i18n();
    let record = i18n.t_with(msg::PLAY_SCORE, &[("right", f.correct.into()), ("answered", f.answered.into())]);
    let pairs = i18n.t_with(msg::FRIENDS_PAIRS, &[("n", f.pairs_in_game.into())]);
    let language = i18n.0;
    let (name, for_challenge) = (f.pseudonym.clone(), f.pseudonym.clone());
    view! {
        <li class="friend">
            <strong class="pseudonym">{name}</strong> " " {record} " · " {pairs}
            <ActionForm action=challenge attr:class="inline">
                <input type="hidden" name="pseudonym" value=for_challenge/>
                <input type="hidden" name="language" value=language/>
                <label>{i18n.t(msg::PLAY_K_LABEL)} " "
                    <select name="k">{K::ALL.into_iter().rev().map(|k| view! { <option value=k.get()>{k.get()}</option> }).collect_view()}</select>
                </label>
                <button type="submit" class="challenge">{i18n.t(msg::FRIENDS_CHALLENGE)}</button>
            </ActionForm>
            <ActionForm action=remove attr:class="inline">
                <input type="hidden" name="pseudonym" value=f.pseudonym/>
                <button type="submit" class="secondary">{i18n.t(msg::FRIENDS_REMOVE)}</button>
            </ActionForm>
        </li>
    }
}

/// A challenge: both scores, the items side by side, and a link to play on.
#[component]
fn ChallengeLine(c: Challenge) -> impl IntoView {
    let i18n = use_i18n();
    let mark = |r: Option<bool>| match r {
        Some(true) => "✓",
        Some(false) => "✗",
        None => "·",
    };
    let heading = i18n.t_with(
        msg::FRIENDS_VERSUS,
        &[("friend", c.friend.clone().into()), ("me", c.me.correct.into()), ("them", c.them.correct.into()), ("n", c.items.into())],
    );
    let unfinished = c.me.answered < c.items;
    view! {
        <li class="challenge">
            <p><strong>{heading}</strong> " (k = " {c.k.get()} ", " {c.language.code()} ")"</p>
            // rows inside an explicit <tbody>: a browser adds one to a table written without
            // it, and the DOM would no longer be the server's HTML that hydration walks
            <table class="compare">
                <tbody>
                    <tr><th scope="row">{i18n.t(msg::FRIENDS_YOU)}</th>{c.results.iter().map(|r| view! { <td>{mark(r.0)}</td> }).collect_view()}</tr>
                    <tr><th scope="row">{c.friend.clone()}</th>{c.results.iter().map(|r| view! { <td>{mark(r.1)}</td> }).collect_view()}</tr>
                </tbody>
            </table>
            {unfinished.then(|| view! { <a href=c.play_url() class="play-challenge">{i18n.t(msg::FRIENDS_PLAY)}</a> })}
        </li>
    }
}
