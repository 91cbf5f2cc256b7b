#!/usr/bin/env python3
"""Times a round of each game mode as new players meet them, on a running Gapwise
(scripts/bench_rounds.sh starts one): the main game's answer (`answer-next`, which
also brings the next item) and the definition game's picks (`define-pick`, which
brings the next round when the right one is found: a new group is drawn), over
HTTP from this one client, the same players in turns. Prints p50/p95 per mode and
the definition pick's ratio to the main game's answer.

    python3 scripts/bench_rounds.py http://127.0.0.1:3000 [players]
"""
import http.cookiejar
import json
import statistics
import sys
import time
import urllib.parse
import urllib.request


def client():
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def call(c, base, endpoint, form):
    body = urllib.parse.urlencode(form).encode()
    req = urllib.request.Request(f"{base}/api/{endpoint}", data=body, headers={"Accept": "application/json"})
    start = time.perf_counter()
    with c.open(req) as res:
        data = res.read()
    return time.perf_counter() - start, json.loads(data) if data else None


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main():
    base = sys.argv[1].rstrip("/")
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    times = {"main game: answer and next item": [], "definitions: pick (W2D)": [], "definitions: pick (D2W)": []}
    for p in range(players):
        c = client()
        call(c, base, "start", {"consent": "yes"})
        _, state = call(c, base, "play", {"k": "5", "language": "en"})
        item = state.get("Item", {}).get("card") if isinstance(state, dict) else None
        for _ in range(5):
            if not item:
                break
            took, r = call(c, base, "answer-next", {"answer_id": item["answer_id"], "choice": "0", "k": "5", "language": "en"})
            times["main game: answer and next item"].append(took)
            item = (r.get("next") or {}).get("Item", {}).get("card") if isinstance(r.get("next"), dict) else None
        for task, key in (("w2d", "definitions: pick (W2D)"), ("d2w", "definitions: pick (D2W)")):
            _, card = call(c, base, "define-round", {"task": task, "cap": "20"})
            for _ in range(3):  # three rounds, each picked until the right one
                if not card:
                    break
                for position in range(len(card["options"])):
                    took, r = call(c, base, "define-pick",
                                   {"serving_id": card["serving_id"], "position": str(position), "task": task, "cap": "20"})
                    times[key].append(took)
                    if r["correct"]:
                        card = r["next"]
                        break
        print(f"player {p + 1}/{players}", end="\r", file=sys.stderr)
    print(f"{'round':34} {'n':>5} {'p50 ms':>8} {'p95 ms':>8}")
    for name, t in times.items():
        if t:
            print(f"{name:34} {len(t):5} {1000 * statistics.median(t):8.1f} {1000 * percentile(t, 0.95):8.1f}")
        else:
            print(f"{name:34}     0      n/a      n/a  (no rounds served)")
    main_p95 = percentile(times["main game: answer and next item"], 0.95)
    for key in ("definitions: pick (W2D)", "definitions: pick (D2W)"):
        if times[key]:
            print(f"{key} p95 / main game p95: {percentile(times[key], 0.95) / main_p95:.2f}")


if __name__ == "__main__":
    main()
