"""COMET, CometKiwi, xCOMET and MetricX-24 (``understudy.neural``)."""
