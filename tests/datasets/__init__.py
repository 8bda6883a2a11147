"""Test sets: downloads, the cache, formats (``understudy.datasets``)."""
