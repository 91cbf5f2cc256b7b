#!/usr/bin/env python3
"""Watches a Gapwise server on a new database (scripts/first_start.sh starts one) and
prints, in minutes since the server was started, when the first page answered and
when each mode became playable in each language: a new player asks the mode's own
server function for a round every 10 s (the main game's item, a sentence to rate, a
sentence to guess word by word, one with the model's suggestions, and in English a
definition round each way and an invented-word round). Exits non-zero if a mode is
still not playable after the time allowed.

    python3 scripts/first_start_watch.py URL STARTED_EPOCH_SECONDS [MINUTES]
"""
import http.cookiejar
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

LANGUAGES = ["en", "es", "fr", "it", "ru"]


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


if __name__ == "__main__":
    main()
