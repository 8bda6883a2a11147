"""Where metrics run: the metrics asked (built once from a command's or a caller's choices),
computed metrics run together over the same systems, and the Dask cluster that text families
and neural metrics can run on.

- ``asked.py``: :class:`~understudy.execution.asked.MetricsAsked`, the metric objects in ``-m`` order;
- ``runs.py``: computed metrics scored together, their notices and error spans;
- ``cluster.py``: a Dask cluster, made or joined, and scatter/gather on it;
- ``dask.py``: exact text-family scoring on Dask (``score --dask``);
- ``on_dask.py``: a neural metric's missing items scored on Dask workers.

>>> import understudy.execution.asked as asked
>>> asked.__name__
'understudy.execution.asked'
"""
