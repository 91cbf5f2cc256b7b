#!/usr/bin/env python3
"""The references that scripts/bench_scorer.sh measures gapwise-scorer against, on the
same items (columns with_target, with_distractor, target, distractor), with 2 threads:

  llama MODEL.gguf ITEMS.tsv   llama.cpp (llama-cpp-python): log p(sentence) for both
                               sentences of every item, every position's logits.
  bert DIR ITEMS.tsv [each|shared]
                               PyTorch transformers, the paper's mask scoring for target
                               and distractor, sorted by length and run in padded
                               batches, only the masked positions through the head.
                               `each` (the default) runs every sentence's masked
                               sequence, as minicons and lm-evaluation-harness score one
                               sentence per sequence; `shared` runs a sequence that two
                               words of as many pieces have in common once, as
                               gapwise-scorer does.
  make-bert DIR                writes a bert-base-sized random-weight BertForMaskedLM
                               (seeded) into DIR, with a 30,522-piece lower-cased
                               WordPiece vocabulary (bert-base-uncased's size) that the
                               tokenizers library trains on the demo's sentences in all
                               five languages.
Prints one JSON line: contexts per second and how many items prefer the target.
"""
import json
import sys
import time
from pathlib import Path

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


def items(path):
    rows = [l.rstrip("\n").split("\t") for l in open(path, encoding="utf-8").readlines()[1:]]
    return [(r[0], r[1], r[2], r[3]) for r in rows]


def report(name, n, seconds, right):
    print(json.dumps({"implementation": name, "contexts": n, "seconds": seconds,
                      "contexts_per_s": n / seconds, "target_preferred": int(right)}))


def llama(model, tsv):
    import numpy as np
    from llama_cpp import Llama
    llm = Llama(model_path=model, logits_all=True, n_ctx=512, n_batch=512, n_threads=2, verbose=False)
    start = llm.tokenize(b"<|endoftext|>", add_bos=False, special=True)
    if len(start) != 1:  # Gemma: sentences are scored after <bos>
        start = [llm.token_bos()]
    rows = items(tsv)
    t0 = time.perf_counter()
    right = 0
    for with_target, with_distractor, _, _ in rows:
        totals = []
        for sentence in (with_target, with_distractor):
            ids = llm.tokenize(sentence.encode(), add_bos=False, special=False)
            llm.reset()
            llm.eval(start + ids)
            logits = np.asarray(llm.scores[: len(ids) + 1], dtype=np.float64)
            m = logits.max(axis=1, keepdims=True)
            lp = logits - m - np.log(np.exp(logits - m).sum(axis=1, keepdims=True))
            totals.append(sum(lp[i, t] for i, t in enumerate(ids)))
        right += totals[0] > totals[1]
    report("llama.cpp (llama-cpp-python)", len(rows), time.perf_counter() - t0, right)


def make_bert(out):
    import csv
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import BertConfig, BertForMaskedLM
    torch.manual_seed(20261122)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model = BertForMaskedLM(BertConfig())  # bert-base: 12 layers, 768 wide, 30522 tokens
    model.save_pretrained(out)
    texts = []
    for lang in ["en", "es", "fr", "it", "ru"]:
        with open(DEMO / f"{lang}_sentences.tsv", encoding="utf-8", newline="") as f:
            texts += [r["text"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]
    special = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(texts, trainers.WordPieceTrainer(vocab_size=30522, special_tokens=special))
    tok.post_processor = processors.BertProcessing(("[SEP]", tok.token_to_id("[SEP]")), ("[CLS]", tok.token_to_id("[CLS]")))
    tok.save(str(out / "tokenizer.json"))


def bert(model_dir, tsv, sharing="each"):
    import torch
    from transformers import BertForMaskedLM, PreTrainedTokenizerFast
    torch.set_num_threads(2)
    tok = PreTrainedTokenizerFast(tokenizer_file=str(Path(model_dir) / "tokenizer.json"),
                                  mask_token="[MASK]", pad_token="[PAD]")
    model = BertForMaskedLM.from_pretrained(model_dir).eval()
    rows = items(tsv)
    t0 = time.perf_counter()
    seqs, index, picks = [], {}, []
    for n, (with_target, _, target, distractor) in enumerate(rows):
        start = with_target.index(target)
        for slot, word in ((2 * n, target), (2 * n + 1, distractor)):
            sentence = with_target[:start] + word + with_target[start + len(target):]
            blank = (start, start + len(word))
            enc = tok(sentence, return_offsets_mapping=True)
            ids, words = enc["input_ids"], enc.word_ids()
            pieces = [i for i, (a, b) in enumerate(enc["offset_mapping"])
                      if words[i] is not None and a < blank[1] and b > blank[0]]
            masked = tuple(tok.mask_token_id if i in pieces else t for i, t in enumerate(ids))
            row = index.setdefault(masked, len(seqs)) if sharing == "shared" else len(seqs)
            if row == len(seqs):
                seqs.append(masked)
            picks += [(row, p, ids[p], slot) for p in pieces]
    sums = [0.0] * (2 * len(rows))
    order = sorted(range(len(seqs)), key=lambda r: len(seqs[r]))
    by_row = {}
    for row, p, t, slot in picks:
        by_row.setdefault(row, []).append((p, t, slot))
    with torch.inference_mode():
        i = 0
        while i < len(order):
            j = i + 1
            while j < len(order) and (j - i + 1) * len(seqs[order[j]]) <= 512:
                j += 1
            batch = order[i:j]
            width = len(seqs[batch[-1]])
            ids = torch.full((len(batch), width), tok.pad_token_id)
            mask = torch.zeros((len(batch), width), dtype=torch.long)
            for b, r in enumerate(batch):
                ids[b, : len(seqs[r])] = torch.tensor(seqs[r])
                mask[b, : len(seqs[r])] = 1
            hidden = model.bert(input_ids=ids, attention_mask=mask).last_hidden_state
            at = [(b, p, t, slot) for b, r in enumerate(batch) for p, t, slot in by_row.get(r, [])]
            picked = hidden[[a[0] for a in at], [a[1] for a in at]]
            lp = torch.log_softmax(model.cls(picked), dim=-1)
            for k, (_, _, t, slot) in enumerate(at):
                sums[slot] += float(lp[k, t])
            i = j
    right = sum(sums[2 * n] > sums[2 * n + 1] for n in range(len(rows)))
    report(f"PyTorch transformers ({sharing})", len(rows), time.perf_counter() - t0, right)


if __name__ == "__main__":
    {"llama": llama, "bert": bert, "make-bert": make_bert}[sys.argv[1]](*sys.argv[2:])
