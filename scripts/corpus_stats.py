#!/usr/bin/env python3
"""Statistics of the shipped demo corpora and word pairs (data/demo), per language:
sentences by source and by genre, what each cleaning rule fixed and dropped (from
data/demo/cleaning_counts.json, written by scripts/make_demo_corpora.py), pairs by
strategy, and for each pair its candidate contexts (sentences holding the target once
and not the distractor, the item builder's rule; and the reverse).

    python3 scripts/corpus_stats.py                 # every language
    python3 scripts/corpus_stats.py it ru           # only those
    python3 scripts/corpus_stats.py --db gapwise.db # and the items built in a database

With `--db FILE` (the SQLite database of a running Gapwise), also the built items:
items per language (by kind and k), contexts, distinct sentences, items holding one
sentence twice, and sentences reused across items (of one pair and of all pairs);
and per language the contexts the item builder looked at and those it dropped for
giving the target away, by reason (article, elision, agreement: docs/src/admins/data.md).
Standard library only."""
import argparse
import collections
import json
import pathlib
import sqlite3
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from make_demo_corpora import context_counts, words  # noqa: E402

DEMO = pathlib.Path(__file__).resolve().parent.parent / "data" / "demo"
LANGUAGES = ("en", "es", "fr", "it", "ru")


def read_tsv(path):
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:] if line]


def table(rows, indent="    "):
    width = max((len(str(k)) for k, _ in rows), default=0)
    for k, v in rows:
        print(f"{indent}{str(k):<{width}}  {v}")


def corpus(lang, counts):
    sentences = read_tsv(DEMO / f"{lang}_sentences.tsv")
    n = len(sentences)
    print(f"\n== {lang}: {n} sentences, {sum(len(s['text']) for s in sentences) / max(n, 1):.0f} characters on average")
    for column in ("genre", "source"):
        by = collections.Counter(s[column] for s in sentences)
        print(f"  by {column}:")
        table([(k, f"{v:6d}  {100 * v / n:5.1f} %") for k, v in by.most_common()])
    c = counts.get(lang)
    if c:
        if "pool" in c:
            print(f"  cleaning: {c['pool']} clean sentences in the sources, {c['sentences']} shipped")
        for kind in ("fixed", "dropped"):
            if c.get(kind):
                print(f"  {kind} by rule:")
                table(sorted(c[kind].items(), key=lambda kv: -kv[1]))
        if c.get("pair_words_not_used"):
            print(f"  candidate pair words left out (part of speech): {' '.join(c['pair_words_not_used'])}")
    path = DEMO / f"{lang}_pairs.tsv"
    if not path.exists():
        return
    pairs = read_tsv(path)
    print(f"  pairs: {len(pairs)}", dict(collections.Counter(p["strategy"] for p in pairs)))
    counted = [collections.Counter(words(s["text"])) for s in sentences]
    rows, per_word = [], []
    for p in pairs:
        a, b = context_counts(counted, p["target"], p["distractor"])
        per_word += [a, b]
        rows.append((f"{p['target']} / {p['distractor']}", f"{a:5d} {b:5d}  {p['strategy']}"))
    print("  contexts of each pair (target without distractor, and the reverse):")
    table(rows)
    if per_word:
        print(f"  contexts per pair word: min {min(per_word)}, median {statistics.median(per_word):g}, max {max(per_word)}")


def items(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    print(f"\n== items in {db}")
    q = """SELECT p.lang, i.kind, i.k, COUNT(*) FROM items i JOIN word_pairs p ON p.id = i.pair_id
           GROUP BY p.lang, i.kind, i.k ORDER BY 1, 2, 3"""
    by_lang = collections.defaultdict(list)
    for lang, kind, k, n in con.execute(q):
        by_lang[lang].append(f"{kind} k={k}: {n}")
    contexts = collections.defaultdict(list)  # lang -> [(item, pair, sentence)]
    q = """SELECT p.lang, c.item_id, i.pair_id, c.sentence_id FROM item_contexts c
           JOIN items i ON i.id = c.item_id JOIN word_pairs p ON p.id = i.pair_id"""
    for lang, item, pair, sentence in con.execute(q):
        contexts[lang].append((item, pair, sentence))
    for lang in sorted(set(by_lang) | set(contexts)):
        rows = contexts[lang]
        per_item = collections.defaultdict(list)
        items_of = collections.defaultdict(set)
        pairs_of = collections.defaultdict(set)
        for item, pair, sentence in rows:
            per_item[item].append(sentence)
            items_of[sentence].add(item)
            pairs_of[sentence].add(pair)
        twice = sum(len(s) != len(set(s)) for s in per_item.values())
        reused = [s for s, its in items_of.items() if len(its) > 1]
        across = [s for s, ps in pairs_of.items() if len(ps) > 1]
        print(f"  {lang}: {len(per_item)} items with contexts ({'; '.join(by_lang[lang])})")
        table([
            ("contexts", len(rows)),
            ("distinct sentences", len(items_of)),
            ("distinct sentences per item (mean)",
             f"{statistics.mean(len(set(s)) for s in per_item.values()):.2f}" if per_item else "-"),
            ("items holding a sentence twice", twice),
            ("sentences in more than one item", f"{len(reused)} (at most {max((len(items_of[s]) for s in reused), default=0)} items)"),
            ("sentences in items of several pairs", len(across)),
        ], indent="      ")
    giveaways(con)


def giveaways(con):
    """The item builder's tallies (table context_tallies): per language, the contexts
    it looked at, and those it dropped because their grammar gives the target away."""
    print("contexts the item builder looked at, and dropped for giving the target away (by reason)")
    if not con.execute("SELECT 1 FROM sqlite_master WHERE name = 'context_tallies'").fetchone():
        print("  n/a (a database from before the builder counted them)")
        return
    tallies = collections.defaultdict(dict)
    for lang, reason, n in con.execute("SELECT lang, reason, contexts FROM context_tallies"):
        tallies[lang][reason] = n
    for lang in sorted(tallies):
        t = tallies[lang]
        looked = t.get("examined", 0)
        dropped = sum(n for r, n in t.items() if r != "examined")
        share = f"{100 * dropped / looked:.1f} %" if looked else "n/a (none looked at)"
        reasons = ", ".join(f"{r} {t.get(r, 0)}" for r in ("article", "elision", "agreement"))
        print(f"  {lang}: {looked} looked at, {looked - dropped} kept, {dropped} dropped ({share}: {reasons})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", default=list(LANGUAGES))
    parser.add_argument("--db", help="SQLite database of a Gapwise server: also print its items' statistics")
    args = parser.parse_args()
    path = DEMO / "cleaning_counts.json"
    counts = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for lang in args.languages:
        corpus(lang, counts)
    if args.db:
        items(args.db)


if __name__ == "__main__":
    main()
