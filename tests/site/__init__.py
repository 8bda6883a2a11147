"""The static results site (``understudy site``)."""
