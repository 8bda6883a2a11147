"""The torchmetrics drop-in (``understudy.torchmetrics``)."""
