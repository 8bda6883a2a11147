"""A T5/mT5 SentencePiece model as the reference code tokenizes with it.

MetricX's checkpoints name google/mt5-*'s tokenizer, published as ``spiece.model`` alone; its
``predict.py`` (transformers 4.30.2) converts that to a fast tokenizer. transformers 5 converts
it differently (it splits on whitespace first, so the double and trailing spaces of MetricX's
input string vanish), so the conversion is written here as 4.30.2 does it: the Unigram model
with T5's extra ids appended, SentencePiece's precompiled normalisation then runs of spaces made
one, U+2581 before every word, ``</s>`` after the text, the special tokens matched in the text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from understudy.errors import ModelError
from understudy.neural._extra import need

UNIGRAM = 1


def _config(folder: Path) -> dict[str, Any]:
    path = folder / "tokenizer_config.json"
    try:
        loaded = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError) as err:
        raise ModelError(f"{path}: not a readable JSON file ({err})") from None
    return loaded if isinstance(loaded, dict) else {}


def _proto(path: Path) -> Any:
    model_pb2 = need("sentencepiece.sentencepiece_model_pb2")
    proto = model_pb2.ModelProto()
    try:
        proto.ParseFromString(path.read_bytes())
    except Exception as err:  # protobuf's DecodeError, or an unreadable file
        raise ModelError(f"{path}: not a SentencePiece model ({type(err).__name__})") from None
    if proto.trainer_spec.model_type != UNIGRAM:
        raise ModelError(
            f"{path}: a SentencePiece model of type {proto.trainer_spec.model_type}; T5's is unigram"
        )
    return proto


def _token(declared: Any, default: str) -> str:
    """A special token as a config declares it: a string, or an AddedToken's ``content``."""
    if isinstance(declared, dict):
        declared = declared.get("content")
    return str(declared) if declared else default


def t5_tokenizer(folder: Path) -> Any:
    """The ``tokenizers`` tokenizer of a T5 tokenizer folder: its ``tokenizer.json`` when it
    has one (read as transformers 4 reads it), else its ``spiece.model`` converted."""
    tokenizers = need("tokenizers")
    if (folder / "tokenizer.json").is_file():
        return tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    if not (folder / "spiece.model").is_file():
        raise ModelError(f"{folder}: neither tokenizer.json nor spiece.model (a T5 tokenizer's files)")
    proto = _proto(folder / "spiece.model")
    config = _config(folder)
    extra = int(config.get("extra_ids", 100))
    vocab = [(piece.piece, piece.score) for piece in proto.pieces]
    vocab += [(f"<extra_id_{i}>", 0.0) for i in range(extra - 1, -1, -1)]
    tokenizer = tokenizers.Tokenizer(tokenizers.models.Unigram(vocab, proto.trainer_spec.unk_id))
    spaces = tokenizers.normalizers.Replace(tokenizers.Regex(" {2,}"), " ")
    charsmap = proto.normalizer_spec.precompiled_charsmap
    steps = [tokenizers.normalizers.Precompiled(charsmap), spaces] if charsmap else [spaces]
    tokenizer.normalizer = tokenizers.normalizers.Sequence(steps)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="always"
    )
    tokenizer.decoder = tokenizers.decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    eos = _token(config.get("eos_token"), "</s>")
    eos_id = tokenizer.token_to_id(eos)
    if eos_id is None:
        raise ModelError(f"{folder}: the tokenizer has no {eos} token")
    tokenizer.post_processor = tokenizers.processors.TemplateProcessing(
        single=["$A", eos], pair=["$A", eos, "$B", eos], special_tokens=[(eos, eos_id)]
    )
    named = [_token(config.get(f"{k}_token"), f"<{k}>") for k in ("unk", "pad")]
    additional = config.get("additional_special_tokens") or [f"<extra_id_{i}>" for i in range(extra)]
    tokenizer.add_special_tokens([eos, *named, *(_token(t, "") for t in additional)])
    return tokenizer
