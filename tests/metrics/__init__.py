"""The families, one file each, and their registry (``understudy.metrics``)."""
