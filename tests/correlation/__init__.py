"""Correlations with human scores and the WMT meta-evaluation (``understudy.correlation``)."""
