#!/usr/bin/env python3
"""PyTorch's side of scripts/gpu_check.sh, on a machine with an NVIDIA GPU:

  make-llama DIR            writes a random-weight (seeded) LlamaForCausalLM of Llama 2 7B's
                            shape (32 layers, 4096 wide, 11008 in the MLP, 32 heads, 32000
                            tokens) in bf16, saved as the Hub ships it (sharded safetensors,
                            config.json), with the fixture's tokenizer (500 byte-level BPE
                            pieces: sentences run about 3x longer than with Llama's own).
  items IN.tsv OUT.tsv N    N distinct items made from IN's (each copy's sentences get a
                            numbered opening), so that nothing can be cached across copies.
  causal DIR ITEMS.tsv      transformers on the GPU, bf16, SDPA attention: log p of both
                            sentences of every item after BOS, length-sorted right-padded
                            batches of at most 8192 padded tokens, log-softmax in f32.
Prints one JSON line: contexts per second and how many items prefer the target.
"""
import json
import shutil
import sys
import time
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
BATCH_TOKENS = 8192


def make_llama(out):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM
    torch.manual_seed(20261126)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = LlamaConfig(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
                         num_key_value_heads=32, vocab_size=32000, max_position_embeddings=4096, bos_token_id=0,
                         eos_token_id=2, pad_token_id=1, tie_word_embeddings=False)
    torch.set_default_dtype(torch.bfloat16)
    with torch.device("cuda"):
        model = LlamaForCausalLM(config)
    model.save_pretrained(out, max_shard_size="5GB")
    shutil.copy(FIXTURES / "hf_llama/tokenizer.json", out / "tokenizer.json")
    (out / "tokenizer_config.json").write_text(json.dumps({"bos_token": "<s>", "eos_token": "</s>", "pad_token": "<pad>"}))


def make_items(src, dst, n):
    rows = [l.rstrip("\n").split("\t") for l in open(src, encoding="utf-8").readlines()[1:]]
    with open(dst, "w", encoding="utf-8") as out:
        out.write("with_target\twith_distractor\ttarget\tdistractor\n")
        for k in range(int(n)):
            t, d, target, distractor = rows[k % len(rows)]
            opening = f"In case {k // len(rows) + 1}, "
            out.write(f"{opening}{t}\t{opening}{d}\t{target}\t{distractor}\n")


def causal(model_dir, tsv):
    import torch
    from transformers import AutoModelForCausalLM, PreTrainedTokenizerFast
    tok = PreTrainedTokenizerFast(tokenizer_file=str(Path(model_dir) / "tokenizer.json"))
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.bfloat16, attn_implementation="sdpa").cuda().eval()
    bos = model.config.bos_token_id
    rows = [l.rstrip("\n").split("\t") for l in open(tsv, encoding="utf-8").readlines()[1:]]

    def score(sentences):
        ids = [[bos] + tok(s, add_special_tokens=False)["input_ids"] for s in sentences]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        totals = [0.0] * len(ids)
        with torch.inference_mode():
            i = 0
            while i < len(order):
                j = i + 1
                while j < len(order) and (j - i + 1) * len(ids[order[j]]) <= BATCH_TOKENS:
                    j += 1
                batch = order[i:j]
                width = len(ids[batch[-1]])
                x = torch.full((len(batch), width), tok.pad_token_id or 1, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                for b, r in enumerate(batch):
                    x[b, : len(ids[r])] = torch.tensor(ids[r])
                    mask[b, : len(ids[r])] = 1
                x, mask = x.cuda(), mask.cuda()
                logits = model(input_ids=x, attention_mask=mask).logits[:, :-1].float()
                lp = torch.log_softmax(logits, dim=-1).gather(2, x[:, 1:].unsqueeze(2)).squeeze(2) * mask[:, 1:]
                for b, s in zip(batch, lp.sum(1).tolist()):
                    totals[b] = s
                i = j
        torch.cuda.synchronize()
        return totals

    sentences = [s for r in rows for s in (r[0], r[1])]
    score(sentences[:16])  # warm-up: kernels, memory pools
    t0 = time.perf_counter()
    totals = score(sentences)
    seconds = time.perf_counter() - t0
    right = sum(totals[2 * n] > totals[2 * n + 1] for n in range(len(rows)))
    print(json.dumps({"implementation": f"PyTorch {torch.__version__} transformers, bf16, sdpa", "contexts": len(rows),
                      "seconds": seconds, "contexts_per_s": len(rows) / seconds, "target_preferred": int(right),
                      "gpu": torch.cuda.get_device_name()}))


if __name__ == "__main__":
    {"make-llama": make_llama, "items": make_items, "causal": causal}[sys.argv[1]](*sys.argv[2:])
