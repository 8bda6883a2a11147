"""Helpers the tests share, imported as ``tests.support.<module>``: where the data is (``paths``),
the command line run in process (``cli``), the families and their oracles (``families``,
``parity``, ``recorded_oracles``), test servers and tiny checkpoints."""
