"""The sacrebleu drop-in (``understudy.sacrebleu``) and sacrebleu's own tests."""
