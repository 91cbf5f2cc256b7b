#!/usr/bin/env python3
"""Watches a Gapwise server on a new database (scripts/first_start.sh starts one) and
prints, in minutes since the server was started, when the first page answered and
when each mode became playable in each language: a new player asks the mode's own
server function for a round every 10 s (the main game's item, a sentence to rate, a
sentence to guess word by word, one with the model's suggestions, and in English a
definition round each way and an invented-word round). Exits non-zero if a mode is
still not playable after the time allowed.

With USE_UP_MINUTES, one player then plays the mode with suggestions for that long,
a sentence in each language in turn, picking a suggestion every WORD_SECONDS (as a
person would), and it prints per language the sentences played and how often no
sentence with suggestions was left; it exits non-zero if a language has none left
at the end (the preparation must keep a few sentences ahead of the players, in
every language, not only at the first minute).

    python3 scripts/first_start_watch.py URL STARTED_EPOCH_SECONDS [MINUTES [USE_UP_MINUTES]]
"""
import http.cookiejar
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

LANGUAGES = ["en", "es", "fr", "it", "ru"]
# a person's pace in the mode with suggestions: reading on, then picking one
WORD_SECONDS = 4


def client():
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def call(c, base, endpoint, form):
    body = urllib.parse.urlencode(form).encode()
    req = urllib.request.Request(f"{base}/api/{endpoint}", data=body, headers={"Accept": "application/json"})
    with c.open(req, timeout=60) as res:
        data = res.read()
    return json.loads(data) if data else None


def new_player(base):
    """A client signed in as a new player. The server starts 60 new players a minute
    from one address, then one a second (server/src/rate_limit.rs): a 429 is waited
    out for as long as its Retry-After says."""
    while True:
        c = client()
        try:
            call(c, base, "start", {"consent": "yes"})
            return c
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise
            time.sleep(float(e.headers.get("Retry-After", "1")))


def checks(language):
    """(mode, endpoint, form, whether the answer is a playable round) for a language."""
    found = lambda r: r is not None
    out = [
        ("play", "play", {"k": "5", "language": language}, lambda r: isinstance(r, dict) and "Item" in r),
        ("rate", "rate-round", {"language": language}, found),
        ("guess (typing)", "guess-round", {"language": language, "mode": "type"}, found),
        ("guess (suggestions)", "guess-round", {"language": language, "mode": "choose"},
         lambda r: r is not None and len(r.get("suggestions", [])) > 0),
    ]
    if language == "en":
        out += [
            ("define (W2D)", "define-round", {"task": "w2d", "cap": "20"}, found),
            ("define (D2W)", "define-round", {"task": "d2w", "cap": "20"}, found),
            ("new words", "new-words-round", {}, found),
        ]
    return out


def main():
    base, started = sys.argv[1].rstrip("/"), float(sys.argv[2])
    allowed = float(sys.argv[3]) if len(sys.argv) > 3 else 20
    minutes = lambda: (time.time() - started) / 60
    while True:
        try:
            with urllib.request.urlopen(f"{base}/", timeout=60) as res:
                if res.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError):
            pass
        if minutes() > allowed:
            sys.exit("the first page never answered")
        time.sleep(1)
    first_page = minutes()
    print(f"first page: {first_page:.1f} min", flush=True)
    ready = {}
    wanted = [(lang, mode) for lang in LANGUAGES for mode, *_ in checks(lang)]
    while len(ready) < len(wanted) and minutes() < allowed:
        for lang in LANGUAGES:
            for mode, endpoint, form, playable in checks(lang):
                if (lang, mode) in ready:
                    continue
                c = new_player(base)  # a new player each time: asking must not change what the next asks
                try:
                    if playable(call(c, base, endpoint, form)):
                        ready[(lang, mode)] = minutes()
                        print(f"  {lang} {mode}: {ready[(lang, mode)]:.1f} min", flush=True)
                except urllib.error.HTTPError as e:
                    print(f"  {lang} {mode}: HTTP {e.code}", flush=True)
        time.sleep(10)
    modes = list(dict.fromkeys(mode for _, mode in wanted))
    print(f"\nminutes from the server's start to playable (first page at {first_page:.1f}):")
    print(f"{'mode':22}" + "".join(f"{lang:>7}" for lang in LANGUAGES))
    for mode in modes:
        row = []
        for lang in LANGUAGES:
            if (lang, mode) not in [(l, m) for l, m in wanted]:
                row.append("-")
            else:
                row.append(f"{ready[(lang, mode)]:.1f}" if (lang, mode) in ready else "never")
        print(f"{mode:22}" + "".join(f"{v:>7}" for v in row))
    missing = [f"{l} {m}" for l, m in wanted if (l, m) not in ready]
    if missing:
        sys.exit(f"not playable after {allowed:.0f} min: {', '.join(missing)}")
    use_up = float(sys.argv[4]) if len(sys.argv) > 4 else 0
    if use_up > 0:
        use_up_suggestions(base, use_up)


def suggested_round(c, base, language):
    """The player's round with suggestions in `language`, or None when none is left."""
    card = call(c, base, "guess-round", {"language": language, "mode": "choose"})
    return card if card is not None and card.get("suggestions") else None


def use_up_suggestions(base, minutes):
    """One player plays the mode with suggestions for `minutes`, the languages in turn."""
    c = new_player(base)
    played = {lang: 0 for lang in LANGUAGES}
    dry = {lang: 0 for lang in LANGUAGES}
    end = time.time() + 60 * minutes
    print(f"\none player uses up the mode with suggestions for {minutes:.0f} min, a sentence a language in turn:", flush=True)
    while time.time() < end:
        for lang in LANGUAGES:
            card = suggested_round(c, base, lang)
            if card is None:
                dry[lang] += 1
                continue
            while card is not None and time.time() < end:
                time.sleep(WORD_SECONDS)
                form = {"serving_id": card["serving_id"], "position": str(card["position"]), "rank": "1", "client_ms": "4000"}
                result = call(c, base, "guess", form)
                if result.get("sentence_done"):
                    played[lang] += 1
                    break
                card = call(c, base, "guess-round", {"language": lang, "mode": "choose"})
    left = {lang: suggested_round(c, base, lang) is not None for lang in LANGUAGES}
    print(f"{'language':10}{'sentences played':>18}{'no sentence left (times)':>26}{'one left at the end':>22}")
    for lang in LANGUAGES:
        print(f"{lang:10}{played[lang]:>18}{dry[lang]:>26}{'yes' if left[lang] else 'NO':>22}")
    if not all(left.values()):
        sys.exit("the mode with suggestions ran out in: " + ", ".join(l for l in LANGUAGES if not left[l]))


if __name__ == "__main__":
    main()
