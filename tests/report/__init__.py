"""The HTML report (``understudy.report``)."""
