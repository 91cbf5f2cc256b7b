//! The items of one word pair (`/admin/items?pair=ID`): each item's kind, k,
//! contexts with the target marked, what it collected, and whether it is gold
//! (an admin verified its answer; see `model::quality`). Admins only.

use gapwise_model::ItemRow;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::api::{admin_pair_items, SetItemGold};
use crate::components::{ActionError, Contexts, ErrorNote};

#[component]
pub fn AdminItems() -> impl IntoView {
    let query = use_query_map();
    let pair = Memo::new(move |_| query.read().get("pair").and_then(|p| p.parse::<i64>().ok()).unwrap_or(0));
    let gold = ServerAction::<SetItemGold>::new();
    let items = Resource::new(move || pair.get(), admin_pair_items);
    view! {
        <Title text="Items of a pair"/>
        <div class="wide">
            <p><a href="/admin">"← Admin"</a></p>
            <ActionError value=gold.value()/>
            <Transition fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match items.await {
                        Ok(p) => view! {
                            <h1>{format!("{} / {}", p.target, p.distractor)} " " <span class="lang">{p.language.code()}</span></h1>
                            <p>{format!("{} items", p.items.len())}</p>
                            <div class="scroll"><table class="items">
                                <thead><tr>
                                    <th scope="col">"Item"</th><th scope="col">"Kind"</th><th scope="col">"k"</th>
                                    <th scope="col">"Contexts"</th><th scope="col">"Answers"</th><th scope="col">"Right"</th><th scope="col">"Gold"</th>
                                </tr></thead>
                                <tbody>{p.items.into_iter().map(|item| view! { <ItemLine item language=p.language.code() target=p.target.clone() gold/> }).collect_view()}</tbody>
                            </table></div>
                        }.into_any(),
                        Err(error) => view! { <ErrorNote error/> }.into_any(),
                    }
                })}
            </Transition>
        </div>
    }
}

#[component]
fn ItemLine(item: ItemRow, language: &'static str, target: String, gold: ServerAction<SetItemGold>) -> impl IntoView {
    let right = if item.kind == "choice" { item.correct.to_string() } else { "–".to_owned() };
    let mark = (item.kind == "choice").then(|| {
        let (label, next) = if item.gold { ("Gold: unmark", "false") } else { ("Mark gold", "true") };
        view! {
            <ActionForm action=gold attr:class="inline">
                <input type="hidden" name="id" value=item.id.get()/>
                <input type="hidden" name="gold" value=next/>
                <button type="submit" class="gold-toggle" data-item=item.id.get()>{label}</button>
            </ActionForm>
        }
    });
    view! {
        <tr>
            <td class="num">{item.id.get()}</td>
            <td>{item.kind}</td>
            <td class="num">{item.k.get()}</td>
            <td><Contexts contexts=item.contexts language filled=target/></td>
            <td class="num">{item.answers}</td>
            <td class="num">{right}</td>
            <td>{mark}</td>
        </tr>
    }
}
