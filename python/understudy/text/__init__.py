"""Text before it is scored: Unicode normalization, the external tokenizers (MeCab,
SentencePiece) and the clear error for text the Rust core cannot take.

- ``normalization.py``: ``--normalize-unicode``, in the core's pinned Unicode version;
- ``external_tokenizers.py``: MeCab and SentencePiece, loaded on first use;
- ``bad_text.py``: a typed error naming the stream and segment of text that is not a string
  or holds a lone surrogate.

>>> from understudy.text.bad_text import explaining_bad_text
>>> callable(explaining_bad_text)
True
"""
