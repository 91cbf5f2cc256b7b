#!/usr/bin/env bash
# Corpus import and word search at scale: generates an English corpus of N sentences
# (4,000,000 by default; made-up words with Zipf-like frequencies plus the a-priori
# words: numbers, months, days, colours), imports it into a fresh SQLite file with the
# release build (prints sentences/s and peak RSS), then times whole-word search for
# every a-priori English pair (p50/p95). Not part of the test suite.
# Usage: scripts/bench_corpus.sh [SENTENCES]
# GAPWISE_BENCH_CORPUS=FILE keeps the generated corpus in FILE and reuses it when present.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
n=${1:-4000000}
cargo build --release --quiet -p gapwise-server
cargo build --release --quiet -p gapwise-store --example search_latency
bin="$CARGO_TARGET_DIR/release/gapwise"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

corpus=${GAPWISE_BENCH_CORPUS:-$work/corpus.tsv}
[ -s "$corpus" ] || python3 - "$n" "$corpus" <<'PY'
import itertools, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(20261123)
syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "la", "ben", "dor", "fin", "gar"]
made_up = sorted({"".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(30000)})
real = [w for line in open("data/pairs/a_priori.tsv", encoding="utf-8") if line.startswith("en\t")
        for w in line.rstrip("\n").split("\t")[2].split()]
vocab = real + made_up
weights = [1.0 / (rank + 10) for rank in range(len(vocab))]
rng.shuffle(weights)
cumulative = list(itertools.accumulate(weights))
with open(path, "w", encoding="utf-8") as out:
    out.write("lang\ttext\tsource\tgenre\n")
    sources = [("wikipedia", "encyclopedia"), ("subtitles", "dialogue"), ("news", "news")]
    for i in range(n):
        words = rng.choices(vocab, cum_weights=cumulative, k=rng.randint(6, 18))
        source, genre = sources[i % 3]
        out.write(f"en\t{' '.join(words).capitalize()} {i}.\t{source}\t{genre}\n")
PY
echo "corpus: $(($(wc -l < "$corpus") - 1)) sentences, $(du -m "$corpus" | cut -f1) MiB"

python3 - "$bin" "$corpus" "$work/corpus.db" <<'PY'
import os, resource, subprocess, sys, time
binary, corpus, db = sys.argv[1:]
env = dict(os.environ, DATABASE_URL=f"sqlite://{db}")
t = time.perf_counter()
out = subprocess.run([binary, "import-corpus", corpus], env=env, capture_output=True, text=True, check=True).stdout.strip()
seconds = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
imported = int(out.split(" imported")[0].rsplit(" ", 1)[-1])
print(out)
print(f"import: {seconds:.1f} s, {imported / seconds:,.0f} sentences/s, peak RSS {rss:.0f} MiB, database {os.path.getsize(db) / 2**20:.0f} MiB")
PY
DATABASE_URL="sqlite://$work/corpus.db" "$CARGO_TARGET_DIR/release/examples/search_latency" en
