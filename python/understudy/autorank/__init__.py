"""WMT25's automatic ranking (AutoRank) from the organisers' per-paragraph scores: read their
files (:mod:`~understudy.autorank.files`), rank a language pair's systems by the method of the
preliminary ranking's "Automatic ranking" section (:mod:`~understudy.autorank.method`), with the
organisers' choice of metrics per pair as data (:mod:`~understudy.autorank.wmt25`).

>>> from understudy.autorank.method import autorank
>>> ranks = autorank({"a": {"m": 3.0}, "b": {"m": 2.0}, "c": {"m": 1.0}}, ["m"])
>>> [round(ranks[s], 2) for s in "abc"]
[1.0, 2.0, 3.0]
"""
