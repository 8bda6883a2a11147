"""Writes ``python/understudy/__init__.pyi``, the package face as type checkers read it, from the
face itself (``understudy.__all__``: the errors it imports and its lazy table ``_LAZY``).

    python scripts/face_stub.py          # rewrite the stub
    python scripts/face_stub.py --check  # exit 1 if the stub is not what the face says

``tests/house/test_face.py`` runs the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

STUB = Path(__file__).resolve().parent.parent / "python" / "understudy" / "__init__.pyi"


def render() -> str:
    """The stub's text: one re-export a name, grouped by module, then ``__all__``."""
    import understudy

    homes: dict[str, list[str]] = {}
    for name in understudy.__all__:
        module = understudy._LAZY.get(name, "understudy.errors")
        homes.setdefault(module, []).append(name)
    lines = [
        "# Written by scripts/face_stub.py from understudy/__init__.py (its errors and _LAZY): edit those.",
        "",
    ]
    for module in sorted(homes):
        for name in sorted(homes[module]):
            lines.append(f"from {module} import {name} as {name}")
    lines += ["", "_LAZY: dict[str, str]", "", "__all__ = ["]
    lines += [f'    "{name}",' for name in understudy.__all__]
    lines += ["]", ""]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        if not STUB.is_file() or STUB.read_text(encoding="utf-8") != text:
            print(f"{STUB} is not what the face says: run python scripts/face_stub.py", file=sys.stderr)
            return 1
        return 0
    STUB.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
