#!/usr/bin/env bash
# The whole test suite: Rust format, lint and unit tests, then Python lint, types and tests.
# Needs the package installed editable with its test extra: pip install -e '.[test]'
set -euo pipefail
cd "$(dirname "$0")/.."

cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
ruff format --check .
ruff check .
mypy
python -m mypy.stubtest understudy._core
python -m pytest
