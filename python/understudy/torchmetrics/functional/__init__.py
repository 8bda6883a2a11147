"""torchmetrics' functional text metrics (``torchmetrics.functional.text``), computed by understudy.

>>> from understudy.torchmetrics.functional import bleu_score
>>> bleu_score(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
tensor(0.7598)
"""

# Re-exported by name ("X as X"): the names of the module, its public face.
from understudy.torchmetrics.functional.text import bert_score as bert_score
from understudy.torchmetrics.functional.text import bleu_score as bleu_score
from understudy.torchmetrics.functional.text import char_error_rate as char_error_rate
from understudy.torchmetrics.functional.text import chrf_score as chrf_score
from understudy.torchmetrics.functional.text import match_error_rate as match_error_rate
from understudy.torchmetrics.functional.text import sacre_bleu_score as sacre_bleu_score
from understudy.torchmetrics.functional.text import translation_edit_rate as translation_edit_rate
from understudy.torchmetrics.functional.text import word_error_rate as word_error_rate
from understudy.torchmetrics.functional.text import word_information_lost as word_information_lost
from understudy.torchmetrics.functional.text import word_information_preserved as word_information_preserved
