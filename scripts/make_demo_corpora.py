#!/usr/bin/env python3
"""Builds the shipped demo corpora of Spanish, Italian, Russian and French
(data/demo/{es,it,ru,fr}_sentences.tsv) from Debian packages, so that every language
is playable out of the box. Run once by hand; the output is committed.

    (mkdir -p /tmp/demo && cd /tmp/demo &&
     apt-get download fortunes-es fortunes-it fortunes-ru debian-reference-fr debian-handbook &&
     for d in *.deb; do dpkg-deb -x "$d" x; done)
    python3 scripts/make_demo_corpora.py /tmp/demo/x       # every language
    python3 scripts/make_demo_corpora.py /tmp/demo/x fr    # or only the ones named

The committed files were made from fortunes-es 1.36, fortunes-it 1.99-4.1,
fortunes-ru 1.52-3.1, debian-reference-fr 2.100 and debian-handbook 11.20220922
(Debian 12); other versions give other sentences.

Sources and licences (see data/demo/README.md):
- es, it, ru: the non-offensive collections of fortunes-es (quotations presumed
  public domain, package GPL-2+), fortunes-it (quotations, not copyrighted as stated
  by its COPYING-POLICY) and fortunes-ru (GPL-2); the offensive collections (`off/`,
  the separate -off packages) are not used, and quotations with words of a small
  block list are dropped.
- fr: paragraphs of two HTML manuals, each sentence tagged with its own source: the
  French translation of the Debian Reference (Osamu Aoki, GPL-2+; source
  `debian-reference-fr`) and the French Debian Administrator's Handbook (Raphaël
  Hertzog, Roland Mas, GPL-2+ or CC BY-SA 3.0, fr-FR HTML under
  /usr/share/doc/debian-handbook/html/fr-FR; source `debian-handbook-fr`). A sentence
  that held markup the parser leaves out (code, commands, file and package names, man
  page references) is dropped, not shipped with a hole, and so is one with debris
  (empty « » or (), a space before , or ., doubled punctuation), a list's lead-in
  (ending with : or ;) or a fragment (not a capital first, not . ! ? … last).
Each sentence: 25 to 250 characters, at least 5 words, no URL, no code-like text.
"""
import html.parser
import itertools
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
    """NFC, single spaces, and no space before a comma or full stop (some
    quotations have one; French puts one only before ; : ! ?)."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    return re.sub(r" ([,.])(?!\.)", r"\1", text)


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


HOLE = "\ue000"  # where the parser left out markup that is not prose (code, a file name...)
BREAK = "\ue001"  # where a block (a list, a nested paragraph, a URL box) cut a paragraph
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
CODE_TAGS = {"code", "pre", "tt", "kbd", "samp", "var", "literal", "sup", "sub", "math", "svg", "script", "style"}
CODE_CLASSES = {"pkg", "package", "replaceable", "citerefentry", "refentrytitle", "keycap", "email", "command",
                "filename", "literal", "varname", "option", "userinput", "computeroutput", "function",
                "parameter", "errortext", "architecture", "systemitem", "envar", "prompt", "screen",
                "programlisting", "uri"}
BLOCK_TAGS = {"div", "p", "ul", "ol", "dl", "li", "dt", "dd", "table", "blockquote", "figure", "h1", "h2", "h3",
              "h4", "h5", "h6"}


class Paragraphs(html.parser.HTMLParser):
    """The paragraphs of a DocBook HTML manual (`<p>` without class: the Debian
    Reference; `<div class="para">`: the Debian Administrator's Handbook), a list of
    texts. Markup that is not prose (code, commands, file and package names, man page
    references, placeholders, keys, superscripts) is left out with a HOLE mark in its
    place, so that the sentence that held it is dropped rather than shipped with a hole;
    footnote marks and URL boxes are left out silently; a block inside a paragraph (a
    list, a nested paragraph) ends a text and starts another."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # open elements: (tag, mode, is a paragraph, is a block)
        self.bufs = []  # the text pieces of the open paragraphs, innermost last
        self.out = []

    def mode(self):
        return self.stack[-1][1] if self.stack else "out"

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        mode = self.mode()
        if tag in VOID:
            if mode == "text":
                self.bufs[-1].append(" " if tag in ("br", "wbr") else HOLE)
            return
        paragraph, block = False, tag in BLOCK_TAGS
        if mode == "text" and block:
            self.bufs[-1].append(BREAK)
        if mode in ("hole", "skip"):
            new = mode
        elif (tag == "p" and not classes) or (tag == "div" and "para" in classes):
            self.bufs.append([])
            new, paragraph = "text", True
        elif tag == "p":
            new = "skip"  # the titles of tables, examples and sidebars
        elif mode != "text":
            new = "out"
        elif (tag in ("a", "sup") and classes & {"footnote", "para"}) or (tag == "a" and "indexterm" in classes):
            new = "skip"  # a footnote's mark or back link
        elif tag == "div" and "url" in classes:
            new = "skip"  # the handbook's "→ https://..." box
        elif tag in CODE_TAGS or classes & CODE_CLASSES:
            self.bufs[-1].append(HOLE)
            new = "hole"
        elif block:
            new = "out"  # a list or a table: its own paragraphs are read
        else:
            new = "text"  # emphasis, links, acronyms, foreign phrases...
        self.stack.append((tag, new, paragraph, block))

    def handle_endtag(self, tag):
        at = next((i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i][0] == tag), None)
        if at is None:
            return
        while len(self.stack) > at:
            _, _, paragraph, block = self.stack.pop()
            if paragraph:
                self.out.extend(tidy(t) for t in "".join(self.bufs.pop()).split(BREAK))
            if block and self.mode() == "text":
                self.bufs[-1].append(BREAK)

    def handle_data(self, data):
        if self.mode() == "text":
            self.bufs[-1].append(data)


UPPER = "A-ZÀÂÄÇÉÈÊËÎÏÔÖÙÛÜŒÆ"
MANUAL_SPLIT = re.compile(rf"(?<=[.!?…])\s+(?=\ue000|[\"«“(]?\s?[{UPPER}])")
DEBRIS = re.compile(
    "\ue000"  # left-out markup
    r"|«\s*»|“\s*”|\(\s*\)|\[\s*\]"  # empty quotes or brackets: "l’option « »"
    r"|(?:^|[\s(«])\(\d\w*\)"  # a man page section without its command: "(1) affiche"
    r"|\w\(\d\w*\)"  # a man page reference left as text: "gettext(1)"
    r"|\s[,.]"  # a space before , or .
    r"|[,;:]\s*[,;:.!?)]|\.\s*[,;:]|\.\s+\.|\(\s*[,;:.]|«\s*[,;:.]"  # punctuation doubled by a hole
    r"|[:;]$"  # a list's lead-in
)
PROSE = re.compile(rf"^[\"«“(]?\s?[{UPPER}].*[.!?…][»\"”)]?$")


def debris(sentence):
    """Whether a manual's sentence is a fragment or carries debris of left-out markup."""
    return bool(DEBRIS.search(sentence)) or not PROSE.match(sentence)


def manual(folder, pattern, source):
    """(sentence, source) of the paragraphs of an HTML manual's pages."""
    for page in sorted(folder.glob(pattern)):
        parser = Paragraphs()
        parser.feed(page.read_text(encoding="utf-8"))
        parser.close()
        for paragraph in parser.out:
            for s in MANUAL_SPLIT.split(paragraph):
                if not debris(tidy(s)):
                    yield s, source


def write(lang, sentences, genre, out_dir):
    """Writes (sentence, source) pairs that pass the filters, a seeded sample of at
    most MAX_PER_LANGUAGE, sorted."""
    seen, rows = set(), []
    for s, source in sentences:
        s = tidy(s)
        if keep(s) and in_language(lang, s) and s not in seen:
            seen.add(s)
            rows.append((s, source))
    random.Random(20261123).shuffle(rows)
    rows = sorted(rows[:MAX_PER_LANGUAGE])
    path = out_dir / f"{lang}_sentences.tsv"
    with path.open("w", encoding="utf-8") as f:
        f.write("lang\ttext\tsource\tgenre\n")
        for s, source in rows:
            f.write(f"{lang}\t{s}\t{source}\t{genre}\n")
    by = {}
    for _, source in rows:
        by[source] = by.get(source, 0) + 1
    print(f"{path}: {len(rows)} sentences {by}")


def tagged(sentences, source):
    return ((s, source) for s in sentences)


def main():
    root = pathlib.Path(sys.argv[1])
    languages = sys.argv[2:] or ["es", "it", "ru", "fr"]
    out = pathlib.Path(__file__).resolve().parent.parent / "data" / "demo"
    games = root / "usr/share/games/fortunes"
    if "es" in languages:
        write("es", tagged(fortunes(games / "es"), "fortunes-es"), "quotation", out)
    if "it" in languages:
        italian = [p for p in (games / "it", games) if p.is_dir()]
        write("it", tagged((s for d in italian for s in fortunes(d)), "fortunes-it"), "quotation", out)
    if "ru" in languages:
        write("ru", tagged(fortunes(games / "ru"), "fortunes-ru"), "quotation", out)
    if "fr" in languages:
        handbook = root / "usr/share/doc/debian-handbook/html/fr-FR"
        french = itertools.chain(manual(root / "usr/share/debian-reference", "*.fr.html", "debian-reference-fr"),
                                 manual(handbook, "*.html", "debian-handbook-fr"))
        write("fr", french, "manual", out)


if __name__ == "__main__":
    main()
