#!/usr/bin/env bash
# Every result file of docs/speed.md, from a clone's top folder (after pip install -e '.[bench,ja]').
# mteval-v13a.pl and mt-metrics-eval are not on PyPI: MTEVAL and MTME name them (their tasks'
# peer rows are left out without them; see scripts/mteval_fixtures.py and scripts/mtme_fixtures.py).
# The neural results (benchmarks/neural.py) need the reference tools' own environments: see its help.
set -euo pipefail
R=benchmarks/results
MTEVAL=${MTEVAL:-/tmp/mteval-v13a.pl}
MTME=${MTME:-/tmp/mtme}
run() { local file=$1; shift; python benchmarks/bench.py --markdown "$@" --save "$R/$file.json"; }
run bleu --quick --tasks corpus sentence pairwise stream paired-bs paired-ar
run chrf-ter --quick --tasks chrf chrfpp ter ter-sentence chrf-pairwise ja-mecab
run given --tasks given-bs given-ar given-pairs
run wer --tasks wer wer-sentence wer-pairwise
run gleu-nist --tasks gleu gleu-sentence nist $([ -f "$MTEVAL" ] && echo --mteval "$MTEVAL")
run ledger --tasks ledger --repeat 7
run meta --tasks meta $([ -d "$MTME" ] && echo --mtme "$MTME")
run token-ids --tasks token-ids --repeat 7
run torchmetrics --tasks tm-bleu tm-sacrebleu tm-wer tm-ter tm-chrf
run report --tasks report
run report-large --quick --tasks report-large
run dask --quick --tasks dask
run startup --tasks startup
run mbr --quick --tasks mbr-chrf mbr-bleu mbr-chrf-64 mbr-bleu-64 mbr-aggregate-chrf mbr-aggregate-bleu
python benchmarks/judges.py --save "$R/judges.json"
