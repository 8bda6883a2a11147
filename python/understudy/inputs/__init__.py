"""What understudy reads, in one room: segment files (:mod:`~understudy.inputs.files`: UTF-8,
one segment a line, tables and numbers), token input (:mod:`~understudy.inputs.tokens`: token
lists and ids), other tools' segment scores (:mod:`~understudy.inputs.score_files`: COMET,
MetricX, mt-metrics-eval, tables) and human judgments (:mod:`~understudy.inputs.human`: TSV,
CSV, JSON, WMT MQM).

Every reader names the file, and the line where it can, in its errors. The room imports only the
ground (errors, the atomic writer); the metrics, the command line and the correlations import it.

>>> from understudy.inputs.files import read_lines
>>> read_lines.__module__
'understudy.inputs.files'
"""
