"""Make the tiny tokenizers of the neural metrics' test checkpoints (tests/fixtures/neural/).

The published checkpoints name XLM-R's SentencePiece tokenizer (250,002 pieces); the tests'
tiny checkpoints need one of the same kind, small enough to commit. It is trained here once,
with the `tokenizers` library, on the WMT17 reference beside the clone, and written as
`tokenizer.json` (the reference code's pinned protobuf cannot convert a slow tokenizer):

    python scripts/tiny_tokenizers.py   # writes tests/fixtures/neural/*-tiny/

bleurt-tiny is a SentencePiece model of BLEURT-20's kind ([PAD] 0, [UNK] 1, [CLS] [SEP] [MASK]
as pieces of their own), kept as lucadiliello/BLEURT-20's: spm.model and its configs, which
bleurt-pytorch reads with its slow (DebertaV2) tokenizer.

mt5-tiny is a SentencePiece model of mT5's kind (<pad> 0, </s> 1, <unk> 2, no <s>) trained
with the sentencepiece library, kept as google/mt5-*'s are: spiece.model and its configs, no
tokenizer.json (the reference code converts it with transformers 4.30.2; understudy likewise).

XLM-R's pipeline is: NFKC, whitespace as U+2581 prepended to every word, a Unigram model
with <s> <pad> </s> <unk> as ids 0-3 and <mask> last, `<s> A </s>` and `<s> A </s></s> B </s>`.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de" / "newstest2017.ref.en-de.de"
OUT = REPO / "tests" / "fixtures" / "neural" / "xlmr-tiny"
MT5_OUT = REPO / "tests" / "fixtures" / "neural" / "mt5-tiny"
BLEURT_OUT = REPO / "tests" / "fixtures" / "neural" / "bleurt-tiny"
ENGLISH = [
    "The cat sat on the mat.",
    "A translation is scored against its source and its reference.",
    "Machine translation quality estimation without references.",
]


def xlmr_tokenizer(lines: list[str], vocab_size: int):  # type: ignore[no-untyped-def]
    """A Unigram tokenizer of XLM-R's shape trained on ``lines``."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    tokenizer = Tokenizer(models.Unigram())
    tokenizer.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("  ", " ")])
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tokenizer.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    trainer = trainers.UnigramTrainer(
        vocab_size=vocab_size,
        special_tokens=["<s>", "<pad>", "</s>", "<unk>"],
        unk_token="<unk>",
        shrinking_factor=0.75,
    )
    tokenizer.train_from_iterator(lines, trainer)
    tokenizer.add_special_tokens(["<mask>"])
    tokenizer.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return tokenizer


def write_atomically(path: Path, data: bytes) -> None:
    """``data`` as ``path``'s content: a new file, renamed over the old."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def mt5_tokenizer(lines: list[str], vocab_size: int) -> None:
    """A SentencePiece unigram model of mT5's kind in MT5_OUT, with its tokenizer.json."""
    import io

    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        pad_id=0,
        eos_id=1,
        unk_id=2,
        bos_id=-1,
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    MT5_OUT.mkdir(parents=True, exist_ok=True)
    write_atomically(MT5_OUT / "spiece.model", model.getvalue())
    specials = {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}
    config = {**specials, "extra_ids": 0, "additional_special_tokens": None, "tokenizer_class": "T5Tokenizer"}
    write_atomically(MT5_OUT / "tokenizer_config.json", (json.dumps(config, indent=1) + "\n").encode())
    write_atomically(MT5_OUT / "special_tokens_map.json", (json.dumps(specials) + "\n").encode())


def bleurt_tokenizer(lines: list[str], vocab_size: int) -> None:
    """A SentencePiece unigram model of BLEURT-20's kind in BLEURT_OUT, with its configs."""
    import io

    import sentencepiece as spm

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines),
        model_writer=model,
        vocab_size=vocab_size,
        model_type="unigram",
        pad_id=0,
        pad_piece="[PAD]",
        unk_id=1,
        unk_piece="[UNK]",
        bos_id=-1,
        eos_id=-1,
        control_symbols=["[CLS]", "[SEP]", "[MASK]"],
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    BLEURT_OUT.mkdir(parents=True, exist_ok=True)
    write_atomically(BLEURT_OUT / "spm.model", model.getvalue())
    specials = {
        "bos_token": "[CLS]",
        "eos_token": "[SEP]",
        "unk_token": "[UNK]",
        "sep_token": "[SEP]",
        "pad_token": "[PAD]",
        "cls_token": "[CLS]",
        "mask_token": "[MASK]",
    }
    config = {
        "do_lower_case": False,
        "split_by_punct": False,
        "tokenizer_class": "BleurtSPTokenizer",
        "model_max_length": 1e30,
        **specials,
    }
    write_atomically(BLEURT_OUT / "tokenizer_config.json", (json.dumps(config, indent=1) + "\n").encode())
    write_atomically(BLEURT_OUT / "special_tokens_map.json", (json.dumps(specials, indent=1) + "\n").encode())


def main() -> None:
    """Train and write the XLM-R-shaped tokenizer."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help=f"training text (default: {DATA})")
    parser.add_argument("--vocab-size", type=int, default=1000)
    args = parser.parse_args()
    lines = args.data.read_text(encoding="utf-8-sig").splitlines()[:2000] + ENGLISH
    tokenizer = xlmr_tokenizer(lines, args.vocab_size)
    OUT.mkdir(parents=True, exist_ok=True)
    write_atomically(OUT / "tokenizer.json", tokenizer.to_str(pretty=True).encode())
    specials = {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "sep_token": "</s>",
        "pad_token": "<pad>",
        "cls_token": "<s>",
        "mask_token": "<mask>",
    }
    config = {"tokenizer_class": "XLMRobertaTokenizer", "model_max_length": 512, **specials}
    write_atomically(OUT / "tokenizer_config.json", (json.dumps(config, indent=1) + "\n").encode())
    write_atomically(OUT / "special_tokens_map.json", (json.dumps(specials, indent=1) + "\n").encode())
    print(f"{OUT}: {tokenizer.get_vocab_size()} pieces")
    mt5_tokenizer(lines, args.vocab_size)
    print(f"{MT5_OUT}: written")
    bleurt_tokenizer(lines, args.vocab_size)
    print(f"{BLEURT_OUT}: written")


if __name__ == "__main__":
    main()
