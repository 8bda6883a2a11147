"""The ledger (``understudy.ledger``)."""
