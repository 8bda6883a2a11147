"""The ledger as a static website: an index of test sets, a page per test set ranking its
systems into significance clusters under every signature with their history, and a page per
record. Plain files, no server and no network: open ``index.html`` from disk or publish the
folder as it is. Needs Jinja2 (extra ``report``).

>>> import tempfile
>>> from pathlib import Path
>>> from understudy import CHRF
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> chrf = CHRF(references=[["a small house", "the dog"]])
>>> ids = [ledger.append(chrf.segment_stats(h), n, "demo") for n, h in (("A", ["a house", "the dog"]),)]
>>> folder = Path(tempfile.mkdtemp()) / "site"
>>> build_site(ledger, folder, Settings(n=100))
Built(testsets=1, records=1, pages=3)
>>> sorted(p.name for p in folder.iterdir())
['.understudy-site', 'index.html', 'records', 'testsets']
"""

from understudy.site.build import Built, build_site
from understudy.site.model import Settings

__all__ = ["Built", "Settings", "build_site"]
