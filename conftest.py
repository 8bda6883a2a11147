"""Collection for the whole repository: the torchmetrics adapter's doctests need the ``torch``
extra (PyTorch and torchmetrics); without it they are not collected, and tests/ says why."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("torchmetrics") else ["python/understudy/torchmetrics/*"]
