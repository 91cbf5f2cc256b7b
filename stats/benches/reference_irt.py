#!/usr/bin/env python3
"""The reference side of scripts/bench_irt.sh: game-shaped answers of a given size
(abilities N(0, 1), difficulties N(-1.2, 1.3), discriminations log-normal; each item
answered 3-15 times, a tenth up to 40), written as JSON for stats/examples/irt_fit.rs,
and the seconds girth's onepl_mml and twopl_mml take on them, best of `runs`.

Usage: reference_irt.py ANSWERS SEED OUT.json [RUNS [MODEL]]   (prints "1pl SECONDS", "2pl SECONDS";
RUNS 0 writes the answers only; MODEL 1pl or 2pl times that fit only)
"""
import json
import sys
import time

import girth
import numpy as np
from girth.utilities import INVALID_RESPONSE


def answers(n, seed):
    rng = np.random.default_rng(seed)
    per_item = 10
    items = max(1, n // per_item)
    players = max(10, n // 30)
    theta = rng.normal(0, 1, players)
    b = rng.normal(-1.2, 1.3, items)
    a = np.clip(rng.lognormal(0.0, 0.35, items), 0.3, 3.0)
    served = np.where(rng.random(items) < 0.1, rng.integers(16, 41, items), rng.integers(3, 16, items))
    data = np.full((items, players), INVALID_RESPONSE, dtype=int)
    for i in range(items):
        who = rng.choice(players, size=min(served[i], players), replace=False)
        p = 1 / (1 + np.exp(-a[i] * (theta[who] - b[i])))
        data[i, who] = (rng.random(len(who)) < p).astype(int)
    return data


def main(n, seed, out, runs=1, only=None):
    data = answers(int(n), int(seed))
    items, players = data.shape
    cells = [[int(p), int(i), bool(data[i, p])] for i in range(items) for p in range(players) if data[i, p] != INVALID_RESPONSE]
    with open(out, "w") as f:
        json.dump({"players": players, "items": items, "cells": cells}, f)
    print(f"answers {len(cells)} items {items} players {players}")
    for name, method in [("1pl", girth.onepl_mml), ("2pl", girth.twopl_mml)]:
        if int(runs) == 0 or only not in (None, name):
            continue
        best = float("inf")
        for _ in range(int(runs)):
            started = time.perf_counter()
            method(data)
            best = min(best, time.perf_counter() - started)
        print(f"{name} {best:.4f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
