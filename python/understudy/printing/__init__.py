"""What the commands print about results: the tables of ``score`` and ``compare``
(``results.py``), and sacrebleu's own text forms for ``understudy sacrebleu`` and
``--sacrebleu-format`` (``sacrebleu_text.py``). Each is a :class:`~understudy.files.tables.Table`
or text, written by the command line.

>>> from understudy.printing.results import corpus_table
>>> callable(corpus_table)
True
"""
