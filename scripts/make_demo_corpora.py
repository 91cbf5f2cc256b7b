#!/usr/bin/env python3
"""Builds the shipped demo corpora of Spanish, Italian, Russian and French
(data/demo/{es,it,ru,fr}_sentences.tsv) from Debian packages, so that every language
is playable out of the box. Run once by hand; the output is committed.

    cd /tmp/demo && apt-get download fortunes-es fortunes-it fortunes-ru debian-reference-fr
    for d in *.deb; do dpkg-deb -x "$d" x; done
    python3 scripts/make_demo_corpora.py /tmp/demo/x

Sources and licences (see data/demo/README.md):
- es, it, ru: the non-offensive collections of fortunes-es (quotations presumed
  public domain, package GPL-2+), fortunes-it (quotations, not copyrighted as stated
  by its COPYING-POLICY) and fortunes-ru (GPL-2); the offensive collections (`off/`,
  the separate -off packages) are not used, and quotations with words of a small
  block list are dropped.
- fr: the French translation of the Debian Reference (Osamu Aoki, GPL-2+), paragraphs
  of the HTML manual.
Each sentence: 25 to 250 characters, at least 5 words, no URL, no code-like text.
"""
import html.parser
import pathlib
import random
import re
import sys
import unicodedata

MAX_PER_LANGUAGE = 4000
BLOCK = re.compile(r"\b(puta|puto|mierda|cabr[oó]n|coño|maric[oó]n|negro de mierda|cazzo|merda|stronz|troia|frocio|"
                   r"блят|бляд|хуй|хуе|пизд|ебат|ебан|сука|жоп|пидор)", re.I)
SPLIT = re.compile(r"(?<=[.!?…])\s+(?=[\"«„“(¡¿]?[A-ZÁÉÍÓÚÑÀÈÌÒÙА-ЯЁ])")


def tidy(text):
    return " ".join(unicodedata.normalize("NFC", text).split())


FRENCH = {"le", "la", "les", "des", "est", "une", "pour", "et", "du", "dans", "qui", "que", "sont", "avec", "pas"}
ENGLISH = {"the", "is", "for", "and", "of", "to", "with", "are", "this", "from"}


def in_language(lang, sentence):
    """Drops text in the wrong language (the French manual has untranslated parts)."""
    words = [w.lower() for w in re.findall(r"\w+", sentence)]
    if lang == "fr":
        return sum(w in FRENCH for w in words) >= 2 and sum(w in ENGLISH for w in words) == 0
    if lang == "ru":
        letters = [c for c in sentence if c.isalpha()]
        return sum("\u0400" <= c <= "\u04ff" for c in letters) > 0.8 * len(letters)
    return True


def keep(sentence):
    words = sentence.split()
    return (25 <= len(sentence) <= 250 and len(words) >= 5 and "http" not in sentence and "www." not in sentence
            and '""' not in sentence
            and not re.search(r"[<>{}\[\]|\\_=#$@/]", sentence) and not BLOCK.search(sentence)
            and sum(c.isalpha() for c in sentence) > 0.7 * len(sentence.replace(" ", "")))


def fortunes(folder):
    """Quotations of a fortune folder (UTF-8 `.u8` files when present), attributions removed."""
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix not in (".dat",))
    chosen = {}
    for p in files:
        base = p.name[:-3] if p.name.endswith(".u8") else p.name
        if p.name.endswith(".u8") or base not in chosen:
            chosen[base] = p
    for p in chosen.values():
        text = p.read_bytes().decode("utf-8", errors="replace")
        for quote in text.split("\n%\n"):
            lines = [l for l in quote.splitlines() if not l.strip().startswith("--") and not l.startswith("\t\t")]
            body = tidy(" ".join(lines))
            if body.startswith("-") or "\ufffd" in body:
                continue  # dialogues and undecodable text
            yield from SPLIT.split(body)


class Paragraphs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.depth, self.buf, self.out = 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.depth, self.buf = 1, []
        elif self.depth and tag in ("code", "pre", "literal", "tt"):
            self.depth += 10  # skip code inside paragraphs

    def handle_endtag(self, tag):
        if tag == "p" and self.depth:
            if self.depth == 1:
                self.out.append(tidy("".join(self.buf)))
            self.depth = 0
        elif self.depth > 10 and tag in ("code", "pre", "literal", "tt"):
            self.depth -= 10

    def handle_data(self, data):
        if self.depth == 1:
            self.buf.append(data)


def manual(folder):
    for page in sorted(folder.glob("*.fr.html")):
        parser = Paragraphs()
        parser.feed(page.read_text(encoding="utf-8"))
        for paragraph in parser.out:
            yield from SPLIT.split(paragraph)


def write(lang, sentences, source, genre, out_dir):
    seen, rows = set(), []
    for s in sentences:
        s = tidy(s)
        if keep(s) and in_language(lang, s) and s not in seen:
            seen.add(s)
            rows.append(s)
    random.Random(20261123).shuffle(rows)
    rows = sorted(rows[:MAX_PER_LANGUAGE])
    path = out_dir / f"{lang}_sentences.tsv"
    with path.open("w", encoding="utf-8") as f:
        f.write("lang\ttext\tsource\tgenre\n")
        for s in rows:
            f.write(f"{lang}\t{s}\t{source}\t{genre}\n")
    print(f"{path}: {len(rows)} sentences")


def main():
    root = pathlib.Path(sys.argv[1])
    out = pathlib.Path(__file__).resolve().parent.parent / "data" / "demo"
    games = root / "usr/share/games/fortunes"
    write("es", fortunes(games / "es"), "fortunes-es", "quotation", out)
    italian = [p for p in (games / "it", games) if p.is_dir()]
    write("it", (s for d in italian for s in fortunes(d)), "fortunes-it", "quotation", out)
    write("ru", fortunes(games / "ru"), "fortunes-ru", "quotation", out)
    write("fr", manual(root / "usr/share/debian-reference"), "debian-reference-fr", "manual", out)


if __name__ == "__main__":
    main()
