#!/usr/bin/env python3
"""Builds data/demo/en_sentences.tsv and data/demo/en_pairs.tsv from WordNet 3.0.

Run once by a developer (needs Debian's `wordnet-base`, read from /usr/share/wordnet:
`apt-get install wordnet-base`, or `apt-get download wordnet-base` and point WORDNET at
the extracted folder); the outputs are committed:

    python3 scripts/make_demo_data.py

Sentences are the quoted usage examples in WordNet glosses, their TeX quotes (`x')
made typographic (‘x’) by make_demo_corpora.tex_quotes. Pairs are chosen from
three strategies; only pairs with at least MIN_CONTEXTS usable sentences are kept
(a sentence is usable for a pair when it holds the target exactly once as a whole
word and not the distractor: the rule of store/src/db/words.rs, approximated here).
The pairs' chosen contexts come first in en_sentences.tsv; then a seeded random sample
of the other examples (in WordNet's order; none with a word of a small block list), so
that the everyday words players propose as pairs have sentences too, up to
TOTAL_SENTENCES in all.
"""
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_demo_corpora import tex_quotes  # noqa: E402

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent.parent / "data" / "demo"
MIN_CONTEXTS = 6
MAX_CONTEXTS_PER_PAIR = 14
MIN_WORDS, MAX_WORDS = 5, 30
TOTAL_SENTENCES = 4000
SEED = 20261123
# the sample leaves out examples of slurs, swearing and sex (the pairs' contexts have none)
BLOCK = re.compile(r"\b(bitch|fuck|shit|cunt|nigg(er|a)|negro|whore|slut|fag|faggot|kike|spic|chink|gook|wetback|"
                   r"bastard|piss|retarded|rap(e|ed|es|ing|ist)|sex|sexual|sexually|penis|vagina|coitus|orgasm|"
                   r"masturbat\w*|porn\w*|homosexuals?)s?\b", re.I)

PAIRS = {
    "a-priori": [
        ("two", "three"), ("three", "four"), ("first", "second"), ("one", "two"),
        ("red", "green"), ("black", "white"), ("blue", "green"), ("yellow", "red"),
        ("Monday", "Friday"), ("Sunday", "Saturday"), ("June", "July"), ("January", "December"),
        ("ten", "twenty"), ("brown", "grey"), ("hundred", "thousand"),
    ],
    "distributional": [
        ("man", "woman"), ("big", "large"), ("small", "little"), ("buy", "sell"),
        ("cat", "dog"), ("hot", "cold"), ("good", "bad"), ("begin", "start"),
        ("water", "wine"), ("house", "home"), ("car", "truck"), ("boy", "girl"),
        ("friend", "enemy"), ("city", "town"), ("old", "new"), ("high", "low"),
        ("father", "mother"), ("king", "queen"), ("war", "peace"), ("day", "night"),
    ],
    "suggested": [
        ("always", "never"), ("quickly", "slowly"), ("love", "hate"), ("win", "lose"),
        ("book", "paper"), ("money", "time"), ("left", "right"), ("open", "close"),
        ("early", "late"), ("music", "art"),
    ],
}

WORD = re.compile(r"\w+(?:-\w+)*")


def examples():
    seen = set()
    for name in ("data.noun", "data.verb", "data.adj", "data.adv"):
        for line in (WORDNET / name).read_text(encoding="latin-1").splitlines():
            if line.startswith("  ") or "|" not in line:
                continue
            gloss = line.split("|", 1)[1]
            for ex in re.findall(r'"([^"]+)"', gloss):
                ex = ex.strip().rstrip(";").strip()
                ex = tex_quotes(ex) or ex.replace("`", "‘")  # `x' -> ‘x’
                n = len(ex.split())
                if MIN_WORDS <= n <= MAX_WORDS and ex not in seen and "\t" not in ex:
                    seen.add(ex)
                    yield ex[0].upper() + ex[1:]


def count(text, word):
    return sum(1 for w in WORD.findall(text) if w.lower() == word.lower())


def main():
    sentences = list(examples())
    chosen, pairs, used = [], [], set()
    for strategy, candidates in PAIRS.items():
        for target, distractor in candidates:
            usable = [s for s in sentences
                      if s not in used and count(s, target) == 1 and count(s, distractor) == 0]
            if len(usable) < MIN_CONTEXTS:
                continue
            take = usable[:MAX_CONTEXTS_PER_PAIR]
            used.update(take)
            chosen.extend(take)
            pairs.append((target, distractor, strategy))
    others = [i for i, s in enumerate(sentences) if s not in used and not BLOCK.search(s)]
    extra = sorted(random.Random(SEED).sample(others, max(0, min(len(others), TOTAL_SENTENCES - len(chosen)))))
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "en_sentences.tsv", "w", encoding="utf-8") as f:
        f.write("lang\ttext\tsource\tgenre\n")
        for s in chosen + [sentences[i] for i in extra]:
            f.write(f"en\t{s}\twordnet-3.0\texample\n")
    with open(OUT / "en_pairs.tsv", "w", encoding="utf-8") as f:
        f.write("lang\ttarget\tdistractor\tstrategy\n")
        for t, d, strategy in pairs:
            f.write(f"en\t{t}\t{d}\t{strategy}\n")
    by = {k: sum(1 for p in pairs if p[2] == k) for k in PAIRS}
    print(f"{len(chosen)} chosen contexts and {len(extra)} other sentences of {len(sentences)}, "
          f"{len(pairs)} pairs {by}", file=sys.stderr)


if __name__ == "__main__":
    main()
