#!/usr/bin/env bash
# The whole test suite: Rust format, lint and unit tests, then Python lint, types and tests.
# Needs the package installed editable with its test extras: pip install -e '.[test,ja,ko,spm,dask,stats,plot,report,ledger,torch,neural,docs]'
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
ruff format --check .
ruff check .
mypy
python -m mypy.stubtest understudy._core  # and its six submodules, each stubbed in _core/
# The documentation site, strictly (a broken link or reference fails), into a folder thrown away.
site=$(mktemp -d) && NO_MKDOCS_2_WARNING=1 mkdocs build --strict --quiet --site-dir "$site" && rm -rf "$site"
python scripts/sacrebleu_suite.py fetch  # sacrebleu's own tests, run by tests/sacrebleu/test_suite.py
python scripts/nltk_suite.py fetch  # NLTK's own BLEU tests and examples, run by tests/nltk/test_adapter.py
# One worker per core (pytest-xdist): the tests are independent, those that share a warmed cache
# grouped on one worker (loadgroup); the slowest named.
python -m pytest -n auto --dist loadgroup --durations=20
