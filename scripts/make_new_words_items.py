#!/usr/bin/env python3
"""Builds data/new_words/winogrande.jsonl, the WinoDict items (paper 003), from
WinoGrande twin sentences and WordNet 3.0. Run once; the output is committed.

Source: the WinoGrande pairs of BIG-bench 1.0.0 (natural_instructions/
subtask029_winogrande_full_object/task.json, in the PyPI sdist `bigbench`, taken out
without installing it). Each example is a twin: two sentences with a blank `_` that
differ in one word, the trigger ("crowded" / "roomy"), which flips the answer. That
word is the key concept WinoDict replaces by an invented word: each sentence of a twin
whose trigger WordNet knows (as a lemma, or a plural, past, -ing or comparative of
one, by the same spelling rules as scorer/src/new_words/morphology.rs or by WordNet's
exception lists) becomes an item with the gloss of its first sense, examples left
out; a gloss that names the word is dropped. Of the readings of the trigger, the one
whose part of speech fits after the word before it (not a noun after "was" or "a
lot", not a verb after "the") and then has the most tagged senses is taken. A fixed
sample (by hash of the sentence) is kept, capped per part of speech.

Usage: scripts/make_new_words_items.py [task.json]   (default: fetched into the cache)
"""
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile

CACHE = os.path.expanduser("~/.cache/gapwise/bigbench")
MEMBER = "bigbench-1.0.0/bigbench/benchmark_tasks/natural_instructions/subtask029_winogrande_full_object/task.json"
WORDNET = "/usr/share/wordnet"
OUT = os.path.join(os.path.dirname(__file__), "..", "data", "new_words", "winogrande.jsonl")
POS_FILES = {"noun": "noun", "verb": "verb", "adj": "adj", "adv": "adv"}
# which parts of speech each form can be
CAP = {"adj": 250, "verb": 150, "noun": 150, "adv": 100}
FORM_POS = {"base": ["adj", "verb", "noun", "adv"], "plural": ["noun", "verb"], "past": ["verb"], "ing": ["verb"], "comparative": ["adj"]}


def task_file():
    if len(sys.argv) > 1:
        return sys.argv[1]
    path = os.path.join(CACHE, MEMBER)
    if not os.path.exists(path):
        os.makedirs(CACHE, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "bigbench==1.0.0", "-d", CACHE], check=True)
        with tarfile.open(os.path.join(CACHE, "bigbench-1.0.0.tar.gz")) as tar:
            tar.extract(MEMBER, CACHE)
    return path


def wordnet():
    """lemma -> {pos: (tagged sense count, offset of its first synset)}, and the glosses."""
    index, glosses = {}, {}
    for pos, name in POS_FILES.items():
        with open(os.path.join(WORDNET, f"index.{name}"), encoding="latin-1") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                fields = line.split()
                lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
                tagged = int(fields[5 + n_pointers])
                first = fields[6 + n_pointers]
                index.setdefault(lemma, {})[pos] = (tagged, first, n_synsets)
        with open(os.path.join(WORDNET, f"data.{name}"), encoding="latin-1") as f:
            for line in f:
                if line.startswith(" ") or "|" not in line:
                    continue
                gloss = line.split("|", 1)[1].strip()
                definition = re.split(r';\s*"', gloss)[0].strip().rstrip(";").strip()
                glosses[(pos, line.split()[0])] = definition
    return index, glosses


def inflect(lemma, form):
    """scorer/src/new_words/morphology.rs::inflect, for checking candidate lemmas."""
    cy = lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in "aeiou"
    if form == "base":
        return lemma
    if form == "plural":
        return lemma[:-1] + "ies" if cy else lemma + ("es" if lemma.endswith(("s", "x", "z", "ch", "sh")) else "s")
    if form == "past":
        return lemma[:-1] + "ied" if cy else lemma + ("d" if lemma.endswith("e") else "ed")
    if form == "ing":
        stem = lemma[:-1]
        return stem + "ing" if lemma.endswith("e") and stem and not stem.endswith("e") else lemma + "ing"
    if form == "comparative":
        return lemma[:-1] + "ier" if cy else lemma + ("r" if lemma.endswith("e") else "er")
    raise ValueError(form)


# words after which the key word is not a noun ("was warmer", "a lot cleaner") or not a
# verb ("the teaching"): the only context the analysis uses
NOT_NOUN_AFTER = {"is", "was", "were", "are", "am", "be", "been", "being", "much", "lot", "far", "even", "slightly", "bit", "very",
                  "so", "too", "more", "less", "get", "gets", "got", "getting", "become", "becomes", "became", "seem", "seems",
                  "seemed", "look", "looks", "looked", "feel", "feels", "felt", "quite", "rather", "really", "pretty", "not"}
NOT_VERB_AFTER = {"the", "a", "an", "his", "her", "my", "their", "its", "our", "your", "this", "that", "these", "those", "some",
                  "any", "no", "every", "each"}
# the form an irregular inflection in WordNet's exception lists has, by part of speech
# (a verb's is -ing when it ends so: "planning plan")
EXCEPTION_FORMS = {"noun": "plural", "verb": "past", "adj": "comparative"}


def exceptions():
    """inflected word -> [(lemma, form)] from WordNet's exception lists (drove -> drive,
    hotter -> hot); superlatives are left out (no form of ours)."""
    out = {}
    for pos, form in EXCEPTION_FORMS.items():
        with open(os.path.join(WORDNET, f"{pos}.exc"), encoding="latin-1") as f:
            for line in f:
                word, *lemmas = line.split()
                if pos == "adj" and word.endswith("est"):
                    continue
                for lemma in lemmas:
                    out.setdefault(word, []).append((lemma, "ing" if pos == "verb" and word.endswith("ing") else form))
    return out


def analyse(word, index, irregular, before):
    """(lemma, form, pos) of `word`, or None when WordNet does not know it. Every
    reading (the word itself, a regular or irregular inflection of a lemma) is
    weighed by whether its part of speech fits after the word `before`, then by
    WordNet's count of tagged senses, then the word itself first."""
    candidates = [(word, "base")]
    for suffix, forms in [("ies", ["plural"]), ("es", ["plural"]), ("s", ["plural"]), ("ied", ["past"]), ("ed", ["past"]), ("d", ["past"]),
                          ("ing", ["ing"]), ("ier", ["comparative"]), ("er", ["comparative"]), ("r", ["comparative"])]:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            for form in forms:
                candidates += [(stem, form), (stem + "e", form), (stem + "y", form)]
    candidates = [(l, f) for l, f in candidates if inflect(l, f) == word] + irregular.get(word, [])
    readings = []
    for order, (lemma, form) in enumerate(candidates):
        for pos in FORM_POS[form]:
            if pos in index.get(lemma, {}):
                fits = not (pos == "noun" and before in NOT_NOUN_AFTER) and not (pos == "verb" and before in NOT_VERB_AFTER)
                readings.append(((fits, index[lemma][pos][0], -order, -FORM_POS[form].index(pos)), (lemma, form, pos)))
    return max(readings)[1] if readings else None


def twins(task):
    pattern = re.compile(r"Sentence 1: (.*?)\s*\nAnswer1: (.*?)\.\s*\nSentence 2: (.*?)\s*\nAnswer2: (.*?)\.?\s*$", re.S)
    for example in task["examples"]:
        m = pattern.match(example["target"][0].strip())
        if m:
            yield m.group(1).strip(), m.group(2).strip(), m.group(3).strip(), m.group(4).strip()


def main():
    task = json.load(open(task_file(), encoding="utf-8"))
    index, glosses = wordnet()
    irregular = exceptions()
    items, seen = [], set()
    for s1, a1, s2, a2 in twins(task):
        t1, t2 = s1.split(), s2.split()
        if len(t1) != len(t2) or s1.count("_") != 1 or s2.count("_") != 1 or a1.lower() == a2.lower():
            continue
        differ = [i for i in range(len(t1)) if t1[i] != t2[i]]
        if len(differ) != 1:
            continue
        before = t1[differ[0] - 1].lower().strip(".,;:!?\"'()") if differ[0] > 0 else ""
        for sentence, answer, other, token in [(s1, a1, a2, t1[differ[0]]), (s2, a2, a1, t2[differ[0]])]:
            key = token.strip(".,;:!?\"'()")
            word = key.lower()
            if not word.isalpha() or word in (answer.lower(), other.lower()) or sentence in seen:
                continue
            if len(re.findall(rf"\b{re.escape(key)}\b", sentence)) != 1:
                continue
            found = analyse(word, index, irregular, before)
            if not found:
                continue
            lemma, form, pos = found
            definition = glosses.get((pos, index[lemma][pos][1]))
            # a definition that names the word would give it away
            if not definition or re.search(rf"\b({re.escape(lemma)}|{re.escape(word)})\b", definition.lower()):
                continue
            seen.add(sentence)
            options = sorted([answer, other], key=lambda o: sentence.find(o) if o in sentence else len(sentence))
            items.append({
                "sentence": sentence,
                "options": options,
                "answer": options.index(answer),
                "key": key,
                "lemma": lemma,
                "form": form,
                "pos": pos,
                "definition": definition,
                "source": "WinoGrande via BIG-bench 1.0.0 subtask029",
            })
    # a fixed sample, each part of speech capped (the paper kept 496 items; Table 1)
    items.sort(key=lambda i: hashlib.sha256(i["sentence"].encode()).hexdigest())
    kept, taken = [], {}
    for item in items:
        if taken.get(item["pos"], 0) < CAP[item["pos"]]:
            taken[item["pos"]] = taken.get(item["pos"], 0) + 1
            kept.append(item)
    items = kept
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        for item in items:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    counts = {}
    for item in items:
        counts[item["pos"]] = counts.get(item["pos"], 0) + 1
    print(f"{len(items)} items kept from {len(task['examples'])} twins: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
