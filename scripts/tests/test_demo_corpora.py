"""Tests of the demo corpus builder's cleaning rules (scripts/make_demo_corpora.py) and
of the shipped files in data/demo. Standard library only:

    python3 -m unittest discover -s scripts/tests

Each rule is tested on real examples from the sources (before -> after)."""
import collections
import contextlib
import io
import json
import pathlib
import struct
import sys
import tempfile
import unittest

SCRIPTS = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(SCRIPTS))
import make_demo_corpora as m  # noqa: E402

DEMO = SCRIPTS.parent / "data" / "demo"
LANGUAGES = ("en", "es", "fr", "it", "ru")


class OddSpaces(unittest.TestCase):
    def test_no_break_and_thin_spaces_become_spaces(self):
        # wesnoth-httt, French: no-break spaces before ! and ?
        self.assertEqual(m.normalize_spaces("Un dragon\u00a0! Il est énorme\u00a0!"), "Un dragon ! Il est énorme !")
        self.assertEqual(m.normalize_spaces("Attendez\u202f?\u200b  Non ."), "Attendez ? Non.")
        self.assertEqual(m.normalize_spaces("soft\u00adhyphen and e\u0301"), "softhyphen and é")


class TexQuotes(unittest.TestCase):
    def test_single_and_double_tex_quotes(self):
        # WordNet glosses (en_sentences.tsv)
        self.assertEqual(m.tex_quotes("`your majesty' is the appropriate title to use in addressing a king"),
                         "‘your majesty’ is the appropriate title to use in addressing a king")
        self.assertEqual(m.tex_quotes("She always used `humankind' because `mankind' seemed to slight the women"),
                         "She always used ‘humankind’ because ‘mankind’ seemed to slight the women")
        self.assertEqual(m.tex_quotes("He said ``stop'' twice."), "He said “stop” twice.")
        # fortunes (English)
        self.assertEqual(m.tex_quotes("BASIC is the Computer Science equivalent of `Scientific Creationism'."),
                         "BASIC is the Computer Science equivalent of ‘Scientific Creationism’.")
        self.assertEqual(m.tex_quotes("The central Superhighway site called ``sunsite.unc.edu'' is down."),
                         "The central Superhighway site called “sunsite.unc.edu” is down.")
        self.assertEqual(m.tex_quotes("It's the dog's bone."), "It's the dog's bone.")

    def test_unclosed_backtick_is_dropped(self):
        self.assertIsNone(m.tex_quotes("A `broken quote without its end."))


class ItalianAccents(unittest.TestCase):
    def test_final_vowel_apostrophe_takes_the_accent(self):
        # fortunes-it
        self.assertEqual(m.italian_accents("Mi piacerebbe tanto uscire con te, ma danno la mia pubblicita' preferita in TV."),
                         "Mi piacerebbe tanto uscire con te, ma danno la mia pubblicità preferita in TV.")
        self.assertEqual(m.italian_accents("Io e William Hurt ci siamo lasciati perche' il piu' sordo tra noi due era proprio lui."),
                         "Io e William Hurt ci siamo lasciati perché il più sordo tra noi due era proprio lui.")
        self.assertEqual(m.italian_accents("E' vero, puo' darsi, cosi' e' la vita in citta'."),
                         "È vero, può darsi, così è la vita in città.")
        self.assertEqual(m.italian_accents("Ne' tu ne' io sapremo mai se' stessi; no... cioe'..."),
                         "Né tu né io sapremo mai sé stessi; no... cioè...")
        self.assertEqual(m.italian_accents("Con 'sta pioggia e con 'sto vento chi e' che bussa a 'sto convento?"),
                         "Con 'sta pioggia e con 'sto vento chi è che bussa a 'sto convento?")
        self.assertEqual(m.italian_accents("A quell'eta' Noe' uso' l'arca."), "A quell'età Noè usò l'arca.")

    def test_elisions_truncations_and_quotes_stay(self):
        for text in ("A Natale mia madre faceva sempre il tacchino: un'imitazione orrenda!",
                     "Abbiamo fatto un bel po' di strada dal ventesimo secolo, figliolo.",
                     "Dell'anno scorso l'uomo ricorda solo quell'estate.",
                     "Be', di' la verità e va' via, fra' Martino.",
                     "Si eviti di utilizzare virgole, 'e' commerciali o parentesi.",
                     "Disse 'ciao' e poi se ne andò."):
            self.assertEqual(m.italian_accents(text), text)


class GluedHeading(unittest.TestCase):
    def test_all_caps_run_before_a_sentence_goes(self):
        # fortunes-ru
        self.assertEqual(m.strip_heading("ЗАПОВЕДИ ПРОГРАММИСТА Чти операционную систему свою и не хай ее разработчиков."),
                         "Чти операционную систему свою и не хай ее разработчиков.")
        self.assertEqual(m.strip_heading("ОДИН ИЗ ЗАКОНОВ МЕРФИ В СЕКСЕ Я могу сопротивляться чему угодно, но только не искушению."),
                         "Я могу сопротивляться чему угодно, но только не искушению.")

        # fortunes (English)
        self.assertEqual(m.strip_heading("WARNING TO ALL PERSONNEL: Firings will continue until morale improves."),
                         "Firings will continue until morale improves.")

    def test_acronyms_and_single_words_stay(self):
        for text in ("GNU GPL es una licencia libre.", "IBM y HP son empresas.", "ATENCIÓN Esto es un aviso importante.",
                     "GNU Emacs is a text editor.", "The GNU GPL is a free licence.",
                     # fortunes (English): a run that ends in a comma is the sentence's own
                     "IF I HAD A MINE SHAFT, I don't think I would just abandon it."):
            self.assertEqual(m.strip_heading(text), text)


class TrailingAttribution(unittest.TestCase):
    def test_inline_attribution_goes(self):
        # fortunes-es
        self.assertEqual(m.strip_attribution("Bromeo luego existo. -- Groucho Marx --"), "Bromeo luego existo.")
        self.assertEqual(m.strip_attribution('"640K deben ser suficientes para cualquiera." - Bill Gates, 1981'),
                         '"640K deben ser suficientes para cualquiera."')
        self.assertEqual(m.strip_attribution("El hombre es la medida de todas las cosas."),
                         "El hombre es la medida de todas las cosas.")
        # fortunes (English)
        self.assertEqual(m.strip_attribution("I do occasionally worry about that. --lwall"),
                         "I do occasionally worry about that.")
        self.assertEqual(m.strip_attribution("You will be approximated. (seen in someone's.signature)"),
                         "You will be approximated.")

    def test_attribution_lines_of_a_fortune_are_cut(self):
        # fortunes-es informatica: the two-line attribution once ended up in the sentence
        quote = ("No soy, ni he sido nunca, un miembro del partido de semidioses.\n"
                 "\t\t-- Dennis Ritchie (1941-2011), creador del lenguaje de \n"
                 "                programación C y del UNIX\n")
        counts = collections.Counter()
        self.assertEqual(list(m.fortune_quotes(quote, counts)),
                         ["No soy, ni he sido nunca, un miembro del partido de semidioses."])


class Fortunes(unittest.TestCase):
    def test_verse_and_dialogue_are_left_out(self):
        counts = collections.Counter()
        text = ("Яркая заплата\nНа ветхом рубище певца.\n%\n"
                "- Какой ток называется переменным?\n- Это такой ток, который...\n%\n"
                "Страшен не чёрт, а то, как он мухлюет.\n")
        self.assertEqual(list(m.fortune_quotes(text, counts)), ["Страшен не чёрт, а то, как он мухлюет."])
        self.assertEqual((counts["dropped:verse"], counts["dropped:dialogue"]), (1, 1))

    def test_labels_are_dropped_in_english(self):
        # fortunes-min's riddles, fortunes' speakers and numbered laws, the handbook's sidebars
        for text in ("Q: How many lawyers does it take to change a light bulb?", "A: To stamp out forest fires.",
                     "Linus: To make others happy.", "XXIX: Executives who do not produce successful results hold on.",
                     "IN PRACTICE: theory and practice do not always match.", "Note: a single test is not always sufficient."):
            self.assertTrue(m.label(text), text)
            self.assertIsNone(m.clean("en", text, collections.Counter()), text)
        for text in ("He said: \"Stop.\"", "McEwan's Rule of Relative Importance: When traveling with a herd of elephants, "
                     "don't be the first to lie down and rest.", "There are two kinds: good and bad."):
            self.assertFalse(m.label(text), text)

    def test_control_characters_are_dropped_in_english(self):
        # fortunes: an accent typed as an overstrike (apostrophe, backspace, letter)
        text = '"I don\'t think so," said Ren\'\x08e Descartes.'
        self.assertTrue(m.control_characters(text))
        counts = collections.Counter()
        self.assertIsNone(m.clean("en", text, counts))
        self.assertEqual(counts["dropped:control"], 1)
        self.assertFalse(m.control_characters('"I don\'t think so," said René Descartes.'))

    def test_whole_proverb_gets_a_full_stop(self):
        self.assertEqual(m.close_sentence("Todos los caminos conducen a Roma"), "Todos los caminos conducen a Roma.")
        self.assertEqual(m.close_sentence("¿Quién sabe?"), "¿Quién sabe?")


def write_mo(path, messages):
    """A little-endian gettext .mo file of (msgid, msgstr) pairs, the header first."""
    messages = [("", "Content-Type: text/plain; charset=UTF-8\n")] + sorted(messages)
    ids = [k.encode() for k, _ in messages]
    strs = [v.encode() for _, v in messages]
    n = len(messages)
    at = 28 + 16 * n
    data, originals, translations = b"", [], []
    for table, texts in ((originals, ids), (translations, strs)):
        for t in texts:
            table.append((len(t), at + len(data)))
            data += t + b"\0"
    head = struct.pack("<7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    path.write_bytes(head + b"".join(struct.pack("<2I", *e) for e in originals + translations) + data)


class Readers(unittest.TestCase):
    def test_wordnet_examples_become_sentences(self):
        with tempfile.TemporaryDirectory() as d:
            folder = pathlib.Path(d)
            line = ('00000001 04 n 01 flunk 0 000 | failure to pass; "he got two flunks on his report"; '
                    '"`paradigm\' is a word"; "was it a flunk?"\n')
            for name in ("data.noun", "data.verb", "data.adj", "data.adv"):
                (folder / name).write_text("  1 This software and database...\n" + (line if name == "data.noun" else ""))
            counts = collections.Counter()
            self.assertEqual(list(m.wordnet_examples(folder, counts)),
                             ["He got two flunks on his report.", "`paradigm' is a word.", "Was it a flunk?"])
            self.assertEqual(counts["fixed:closed_example"], 3)
            # an example WordNet cut short is left out
            cut = '00000002 04 n 01 honorary 0 000 | an award; "six honorary were conferred; the conferees were..."\n'
            (folder / "data.noun").write_text(cut)
            counts = collections.Counter()
            self.assertEqual(list(m.wordnet_examples(folder, counts)), [])
            self.assertEqual(counts["dropped:cut_off_example"], 1)

    def test_version_numbers_and_times_are_dropped(self):
        for text in ("Installez Debian 12.9.5 maintenant.", "Gli indirizzi sono 10.0.2.2 e 10.0.0.1.",
                     "L'autopsia è iniziata intorno alle 20:30.", "Vedere Sezione 10.3.6 del manuale."):
            self.assertTrue(m.numbered(text), text)
        for text in ("He paid 3.50 for it.", "In 1999 it began.", "Chapter 2 ends here."):
            self.assertFalse(m.numbered(text), text)

    def test_wesnoth_english_is_the_originals_of_every_catalog(self):
        with tempfile.TemporaryDirectory() as d:
            locales = pathlib.Path(d)
            for lang, messages in (("fr", [("Move Konrad to the signpost", "Déplacez Konrad"),
                                           ("We must flee. Now!", "Fuyons. Vite !")]),
                                   ("de", [("We must flee. Now!", "Wir müssen fliehen!"),
                                           ("speaker\x04Who goes there?", "Wer da?")])):
                (locales / lang / "LC_MESSAGES").mkdir(parents=True)
                write_mo(locales / lang / "LC_MESSAGES" / "wesnoth-httt.mo", messages)
            self.assertEqual(list(m.mo_messages(locales / "fr/LC_MESSAGES/wesnoth-httt.mo")),
                             ["Déplacez Konrad", "Fuyons. Vite !"])
            self.assertEqual(list(m.wesnoth_english(locales, "wesnoth-httt")),
                             ["Move Konrad to the signpost", "We must flee.", "Now!", "Who goes there?"])


class Fragments(unittest.TestCase):
    def test_fragments(self):
        self.assertTrue(m.fragment("Encuentre la fuente de los no muertos y destrúyala"))  # a game objective
        self.assertTrue(m.fragment("la biblioteca libpng, que permite cargar imágenes en el formato PNG."))
        self.assertTrue(m.fragment("Все равно не включается! - А вы кнопку-то отпустите..."))  # dialogue run together
        self.assertTrue(m.fragment("LOS INFORMÁTICOS NO MIENTEN, DICEN REALIDADES VIRTUALES."))
        self.assertFalse(m.fragment("«Ya escuchasteis su mensaje», dijo el rey."))
        self.assertFalse(m.fragment("¿Por qué estás haciendo esto?"))

    def test_unbalanced_quotes(self):
        self.assertTrue(m.unbalanced('E il dottore gli dà questo consiglio: "Bene, torni a casa.'))
        self.assertFalse(m.unbalanced('"Dottore, mio marito mi vuole cacciare di casa".'))
        self.assertTrue(m.unbalanced("Il a dit « non et il est parti."))


class Crude(unittest.TestCase):
    def test_block_list(self):
        # the user report's examples
        self.assertTrue(m.crude("ru", "Сидят два веб-дизайнера, бухают водку."))
        self.assertTrue(m.crude("es", "A cada uno le huele bien el pedo de su culo."))
        self.assertTrue(m.crude("it", "Che cazzo dici?"))
        self.assertTrue(m.crude("fr", "Quel bordel, putain !"))
        # fortunes and Wesnoth (English)
        self.assertTrue(m.crude("en", "Prepare to have your ass laminated."))
        self.assertTrue(m.crude("en", "You always were an arrogant little bastard."))
        self.assertTrue(m.crude("en", "Rap music is just computerised crap."))
        self.assertTrue(m.crude("en", "That was complete bullshit, man."))

    def test_words_that_only_start_alike_pass(self):
        self.assertFalse(m.crude("ru", "Главный бухгалтер купил мандарин."))
        self.assertFalse(m.crude("es", "La cultura del círculo es ridícula."))
        self.assertFalse(m.crude("fr", "La culture est ce qui reste."))
        self.assertFalse(m.crude("it", "Il calcolo della figura è facile."))
        self.assertFalse(m.crude("en", "The assassin passed the class in Scunthorpe."))
        self.assertFalse(m.crude("en", "Damn these goblins and damn the Crown."))  # mild: not on the list
        self.assertFalse(m.crude("en", "A flame retardant coat and a cocktail."))


class Language(unittest.TestCase):
    def test_untranslated_paragraphs_are_dropped(self):
        # debian-handbook-es keeps English paragraphs
        self.assertFalse(m.in_language("es", "This command requires administrator rights, since it accesses the USB key directly."))
        self.assertTrue(m.in_language("es", "Simplemente son procesos, muy similares a otros procesos."))
        self.assertFalse(m.in_language("ru", "Раздел 4.2.1, «Where to Find Installation Files» explains how to find images."))
        self.assertTrue(m.in_language("it", "Sei stato molto sciocco a venire qui da solo."))

    def test_english(self):
        # fortunes (English) hold Italian and Latin
        self.assertFalse(m.in_language("en", "Brillineggiava, ed i tovoli slati girlavano ghimbanti nella vaba; i borogovi "
                                             "eran tutti mimanti e la moma radeva fuorigraba."))
        self.assertFalse(m.in_language("en", "Omnibus Budget Reconciliation, Fiscal 1986."))
        self.assertTrue(m.in_language("en", "Real software engineers don't debug programs, they verify correctness."))
        self.assertTrue(m.in_language("en", "You always like his plans, Grüü."))


class Debris(unittest.TestCase):
    def test_left_out_markup_and_mojibake(self):
        self.assertTrue(m.debris("Les commandes (1), (1) et (1) peuvent être utilisées."))
        self.assertTrue(m.debris("Vous ne devriez pas avoir peur d'utiliser , car cela ne cause aucun souci."))
        self.assertTrue(m.debris('Beppe Grillo, su "CarrÃ\u00a0 mba che sorpresa".'))
        self.assertTrue(m.debris("Все равно не включается!!!"))
        self.assertFalse(m.debris("Le paquet propose une autre infrastructure."))

    def test_code_and_urls(self):
        self.assertTrue(m.url_or_code("Voir https://www.debian.org/ pour les détails."))
        self.assertTrue(m.url_or_code("Lancez $HOME/bin/script pour le faire."))
        self.assertFalse(m.url_or_code("Lancez le script pour le faire."))

    def test_near_duplicates_share_a_key(self):
        self.assertEqual(m.dedup_key("Del dicho al hecho hay mucho trecho."), m.dedup_key("Del dicho al hecho, hay mucho trecho"))


class Clean(unittest.TestCase):
    def test_rules_in_order_with_counts(self):
        counts = collections.Counter()
        self.assertEqual(m.clean("it", "E' meglio  tacere e sembrare stupidi che parlare e togliere ogni dubbio.", counts),
                         "È meglio tacere e sembrare stupidi che parlare e togliere ogni dubbio.")
        self.assertEqual(counts["fixed:accent_apostrophes"], 1)
        self.assertEqual(counts["fixed:odd_spaces"], 1)
        self.assertIsNone(m.clean("es", "Corto.", counts))
        self.assertEqual(counts["dropped:length"], 1)


class Words(unittest.TestCase):
    def test_whole_word_rule_of_the_item_builder(self):
        # the rule of model/src/words.rs
        self.assertEqual(m.words("Twenty-one dogs; l'été dell'anno."), ["twenty-one", "dogs", "l", "été", "dell", "anno"])
        self.assertTrue(m.is_context("Ho sei anni e tre mesi.", "sei", "cinque"))
        self.assertFalse(m.is_context("Sei anni, sei mesi.", "sei", "cinque"))  # twice
        self.assertFalse(m.is_context("Tra cinque o sei anni.", "sei", "cinque"))  # holds the distractor


class PartOfSpeech(unittest.TestCase):
    def tag(self, text):
        tokens = m.words(text)
        return [m.italian_pos(tokens, i) for i in range(len(tokens))]

    def test_italian_sei_secondo_uno(self):
        pos = lambda text, word: self.tag(text)[m.words(text).index(word)]  # noqa: E731
        self.assertEqual(pos("Chi sei tu per dirmelo?", "sei"), "AUX")
        self.assertEqual(pos("Sei stato molto sciocco.", "sei"), "AUX")
        self.assertEqual(pos("Ho lavorato sei anni in fabbrica.", "sei"), "NUM")
        self.assertEqual(pos("I sei fratelli partirono.", "sei"), "NUM")
        self.assertEqual(pos("Ne ho visti cinque o sei in tutto.", "sei"), "NUM")
        self.assertEqual(pos("Secondo me ha ragione.", "secondo"), "ADP")
        self.assertEqual(pos("Il secondo giorno partimmo.", "secondo"), "ADJ")
        self.assertEqual(pos("Uno non sa mai.", "uno"), "DET")
        self.assertEqual(pos("Vincono uno a uno.", "uno"), "NUM")

    def test_words_in_the_wrong_sense_are_dropped_or_not_used(self):
        rows = [("Chi sei tu per dirmelo?", "s", "g"), ("Ho lavorato sei anni in fabbrica.", "s", "g"),
                ("Ne ho visti cinque in tutto.", "s", "g"), ("Uno non sa mai cosa dire.", "s", "g")]
        wanted = {"sei": m.CARDINAL, "cinque": m.CARDINAL, "uno": m.CARDINAL}
        shares, wrong = m.pos_check(rows, wanted, m.tagger("it"))
        self.assertEqual(shares, {"sei": 0.5, "cinque": 1.0, "uno": 0.0})
        self.assertEqual(wrong, {"Chi sei tu per dirmelo?": {"sei"}, "Uno non sa mai cosa dire.": {"uno"}})
        counts = collections.Counter()
        kept = m.drop_wrong_pos(rows, {"sei", "cinque"}, wrong, counts)
        self.assertNotIn(rows[0], kept)  # "sei" the verb, where a pair means six
        self.assertIn(rows[3], kept)  # "uno" is in no pair: its sentence stays
        self.assertEqual(counts["dropped:pair_word_pos"], 1)

    def test_english_context_rule(self):
        def pos(text, word):
            tokens = m.english_tokens(text)
            return m.english_pos(tokens, [t.lower() for t in tokens].index(word))
        # left and right: a side, or the verb, the entitlement, "correct"
        self.assertEqual(pos("Turn left at the corner.", "left"), "SIDE")
        self.assertEqual(pos("Click the right mouse button.", "right"), "SIDE")
        self.assertEqual(pos("Move it to the right of the screen.", "right"), "SIDE")
        self.assertEqual(pos("His left arm was hurt.", "left"), "SIDE")
        self.assertEqual(pos("He left the room in a hurry.", "left"), "VERB")
        self.assertEqual(pos("Nothing was left of the castle.", "left"), "VERB")
        self.assertEqual(pos("You have the right to remain silent.", "right"), "ADJ")
        self.assertEqual(pos("You are right, as usual.", "right"), "ADJ")
        # open and close: the verb, or the adjective
        self.assertEqual(pos("Open the file with an editor.", "open"), "VERB")
        self.assertEqual(pos("You can close it later.", "close"), "VERB")
        self.assertEqual(pos("The door is open.", "open"), "ADJ")
        self.assertEqual(pos("It isn't open to the public.", "open"), "ADJ")
        self.assertEqual(pos("Open source software is everywhere.", "open"), "ADJ")
        self.assertEqual(pos("The mirror is close to you.", "close"), "ADJ")
        # one: the numeral or the pronoun; ordinals
        self.assertEqual(pos("I have one dog and two cats.", "one"), "NUM")
        self.assertEqual(pos("No one knows where he came from.", "one"), "PRON")
        self.assertEqual(pos("One must never lie.", "one"), "PRON")
        self.assertEqual(pos("There has been fire here, and not a clean one.", "one"), "PRON")
        self.assertEqual(pos("At first I thought it was a joke.", "first"), "ADV")
        self.assertEqual(pos("The first day was cold.", "first"), "ADJ")
        self.assertEqual(pos("Wait a second, please.", "second"), "NOUN")
        self.assertEqual(pos("He got a second chance.", "second"), "ADJ")
        self.assertEqual(pos("It won't last.", "last"), "VERB")
        self.assertEqual(pos("The last time I saw him.", "last"), "ADJ")
        # nouns and verbs; names
        self.assertEqual(pos("At the start of the war.", "start"), "NOUN")
        self.assertEqual(pos("We start the server at boot.", "start"), "VERB")
        self.assertEqual(pos("Packages that need a rebuild.", "need"), "VERB")
        self.assertEqual(pos("I went home early.", "home"), "ADV")
        self.assertEqual(pos("The home directory is small.", "home"), "NOUN")
        self.assertEqual(pos("Flee back to the Green Isle!", "green"), "PROPN")
        self.assertEqual(pos("Green leaves grew on the tree.", "green"), None)  # taken as meant
        self.assertEqual(pos("The day was long.", "day"), None)

    def test_english_words_in_another_sense_are_dropped(self):
        rows = [("He left the room in a hurry.", "s", "g"), ("Turn left at the corner.", "s", "g"),
                ("Turn right at the corner.", "s", "g")]
        wanted = {"left": m.SIDE, "right": m.SIDE}
        shares, wrong = m.pos_check(rows, wanted, m.tagger("en"))
        self.assertEqual(shares, {"left": 0.5, "right": 1.0})
        self.assertEqual(wrong, {"He left the room in a hurry.": {"left"}})


class Sampling(unittest.TestCase):
    def test_water_fill(self):
        self.assertEqual(m.water_fill({"a": 100, "b": 5, "c": 100}, 60, 30), {"a": 28, "b": 5, "c": 27})
        self.assertEqual(sum(m.water_fill({"a": 10, "b": 10}, 50, 30).values()), 20)

    def test_source_share_is_capped(self):
        rows = [(f"Frase numero {i} di prova qui.", "big", "quotation") for i in range(300)]
        rows += [(f"Altra frase {i} di prova qui.", "small", "manual") for i in range(50)]
        chosen = m.sample(rows, set(), 100)
        by = collections.Counter(r[1] for r in chosen)
        self.assertEqual(by, {"big": 30, "small": 30})  # MAX_SOURCE_SHARE of the target each
        rows += [(f"Terza frase {i} di prova qui.", f"s{i % 3}", "fiction") for i in range(300)]
        by = collections.Counter(r[2] for r in m.sample(rows, set(), 100))
        self.assertEqual(by, {"quotation": 30, "manual": 30, "fiction": 40})

    def test_pair_words_are_reserved_first(self):
        rows = [(f"Frase numero {i} di prova qui.", "big", "quotation") for i in range(300)]
        rows += [("Ho visto tre gatti e un cane.", "big", "quotation")]
        self.assertIn(rows[-1], m.sample(rows, {"tre"}, 10))

    def test_a_priori_candidates_agree(self):
        pairs = m.a_priori_candidates("it")
        self.assertIn(("due", "tre", m.CARDINAL), pairs)
        self.assertIn(("nera", "bianca", m.COLOUR), pairs)
        self.assertNotIn(("nero", "bianca", m.COLOUR), pairs)  # gender disagrees
        self.assertTrue(all(not m.same_word(a, b) for a, b, _ in m.a_priori_candidates("ru")))


class ShippedFiles(unittest.TestCase):
    """The committed data/demo files obey the rules."""

    @classmethod
    def setUpClass(cls):
        cls.rows = {}
        for lang in LANGUAGES:
            lines = (DEMO / f"{lang}_sentences.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")
            assert lines[0] == "lang\ttext\tsource\tgenre"
            cls.rows[lang] = [tuple(line.split("\t")) for line in lines[1:]]

    def test_sizes_and_columns(self):
        total = sum((DEMO / f"{lang}_sentences.tsv").stat().st_size for lang in LANGUAGES)
        self.assertLess(total, 14_000_000)
        for lang in LANGUAGES:
            rows = self.rows[lang]
            self.assertGreaterEqual(len(rows), 10_000, lang)
            self.assertTrue(all(len(r) == 4 and r[0] == lang for r in rows), lang)
            genres = collections.Counter(r[3] for r in rows)
            self.assertGreaterEqual(len(genres), 2, lang)
            sources = collections.Counter(r[2] for r in rows)
            self.assertLessEqual(max(sources.values()), (m.MAX_SOURCE_SHARE + 0.05) * len(rows), lang)

    def test_every_sentence_is_clean_and_unique(self):
        for lang in LANGUAGES:
            keys = set()
            for _, text, _, _ in self.rows[lang]:
                counts = collections.Counter()
                self.assertEqual(m.clean(lang, text, counts), text, (lang, text, dict(counts)))
                key = m.dedup_key(text)
                self.assertNotIn(key, keys, text)
                keys.add(key)

    def test_english_has_the_four_genres(self):
        genres = collections.Counter(r[3] for r in self.rows["en"])
        self.assertEqual(set(genres), {"example", "quotation", "manual", "fiction"})
        self.assertLessEqual(max(genres.values()), (m.MAX_GENRE_SHARE + 0.05) * len(self.rows["en"]))
        self.assertFalse([r for r in self.rows["en"] if "`" in r[1] or "\u00a0" in r[1]])

    def test_pairs(self):
        for lang in LANGUAGES:
            lines = (DEMO / f"{lang}_pairs.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")
            self.assertEqual(lines[0], "lang\ttarget\tdistractor\tstrategy")
            pairs = [tuple(line.split("\t")) for line in lines[1:]]
            self.assertGreaterEqual(len(pairs), 30, lang)
            strategies = {"a-priori", "distributional"} | ({"suggested"} if lang == "en" else set())
            self.assertEqual({p[3] for p in pairs}, strategies, lang)
            keys = {tuple(sorted((p[1].lower(), p[2].lower()))) for p in pairs}
            self.assertEqual(len(keys), len(pairs), lang)
            counted = [collections.Counter(m.words(r[1])) for r in self.rows[lang]]
            for _, t, d, _ in pairs:
                a, b = m.context_counts(counted, t, d)
                self.assertGreaterEqual(min(a, b), m.MIN_CONTEXTS, (lang, t, d, a, b))

    def test_ambiguous_words_are_left_out_of_the_pairs(self):
        # the decision of data/demo/README.md: a word whose occurrences mostly have
        # another part of speech than its pair means is in no pair ("sei" is mostly the
        # verb "you are", Spanish "uno" the pronoun, French "un" the article)
        counts = json.loads((DEMO / "cleaning_counts.json").read_text(encoding="utf-8"))
        for lang, ambiguous in (("it", {"sei", "uno", "secondo"}), ("es", {"uno", "primero"}), ("fr", {"un", "neuf"}),
                                ("en", {"one", "left", "right", "open", "close"})):
            lines = (DEMO / f"{lang}_pairs.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")[1:]
            used = {w for line in lines for w in line.split("\t")[1:3]}
            self.assertFalse(used & ambiguous, lang)
            self.assertLessEqual(ambiguous, set(counts[lang]["pair_words_not_used"]), lang)

    def test_pair_words_have_the_meant_part_of_speech_in_italian(self):
        lines = (DEMO / "it_pairs.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")[1:]
        used = {w for line in lines for w in line.split("\t")[1:3]}
        for _, text, _, _ in self.rows["it"]:
            tokens = m.words(text)
            for i, w in enumerate(tokens):
                if w in used and m.italian_pos(tokens, i) is not None:
                    self.assertIn(m.italian_pos(tokens, i), {"NUM", "ADJ"}, text)

    def test_pair_words_have_the_meant_sense_in_english(self):
        # no sentence holds a word of the English pairs in another sense ("left" the verb)
        lines = (DEMO / "en_pairs.tsv").read_text(encoding="utf-8").rstrip("\n").split("\n")[1:]
        meant = {w.lower(): pos for t, d, pos, _ in m.candidate_pairs("en") for w in (t, d)}
        used = {w.lower() for line in lines for w in line.split("\t")[1:3]}
        for _, text, _, _ in self.rows["en"]:
            tokens = m.english_tokens(text)
            for i, t in enumerate(tokens):
                tag = m.english_pos(tokens, i) if t.lower() in used else None
                if tag is not None:
                    self.assertIn(tag, m.ACCEPT[meant[t.lower()]], text)

    def test_cleaning_counts(self):
        counts = json.loads((DEMO / "cleaning_counts.json").read_text(encoding="utf-8"))
        for lang in LANGUAGES:
            self.assertEqual(counts[lang]["sentences"], len(self.rows[lang]), lang)


class CorpusStats(unittest.TestCase):
    def test_prints_corpus_pairs_and_items(self):
        import corpus_stats  # noqa: PLC0415
        out = io.StringIO()
        counts = json.loads((DEMO / "cleaning_counts.json").read_text(encoding="utf-8"))
        with contextlib.redirect_stdout(out):
            corpus_stats.corpus("it", counts)
            corpus_stats.corpus("en", counts)
            corpus_stats.items(SCRIPTS.parent / "server/fixtures/lm_eval/gapwise.db")
        text = out.getvalue()
        self.assertIn("accent_apostrophes", text)
        self.assertIn("closed_example", text)  # English, like the others
        self.assertIn("suggested", text)
        self.assertIn("contexts per pair word: min", text)
        self.assertIn("sentences in more than one item", text)


if __name__ == "__main__":
    unittest.main()
