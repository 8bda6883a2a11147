"""Files understudy writes and keeps: atomically (``atomic.py``), one table in four formats
(``tables.py``), and the cache folder its downloads, models and scores are kept in
(``cache_folder.py``).

>>> from understudy.files.atomic import atomic_write
>>> callable(atomic_write)
True
"""
