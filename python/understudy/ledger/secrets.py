"""Passwords kept out of everything understudy prints, logs or keeps: a ledger's URL or libpq
connection string shown with ``***`` in place of its password, and the password texts a driver's
error may echo back. Light on purpose: every command names its ledger in its help.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"]*", re.IGNORECASE)
# A URL's user:password@, the password unencoded and so holding anything but a line break or
# "/" (a space, a quote, an "@"): it runs to the last "@" before the host's path. The user
# is a plain word, so text before "://" on the line is never taken for one.
_USERINFO = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s/@:'\"]*:)[^/\r\n]*@", re.IGNORECASE)
# libpq's keyword/value form: password=secret, password = 'quoted \' secret'.
_KEYWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s&]*)", re.IGNORECASE)


def redacted(text: str) -> str:
    """``text`` with every password in it replaced by ``***``: a URL's (``user:PASSWORD@``, even
    with an unencoded ``@``, quote or space in it, and ``?password=``, its name percent-encoded
    or not) and libpq's ``password=`` keyword.

    >>> redacted("postgresql://u:p@ss@h/db ?x")
    'postgresql://u:***@h/db ?x'
    >>> redacted("ledger postgresql://u:it's a pw@h/db failed")
    'ledger postgresql://u:***@h/db failed'
    >>> redacted("postgres://u@h/db?sslmode=require&pass%77ord=SECRET")
    'postgres://u@h/db?sslmode=require&pass%77ord=***'
    >>> redacted("host=h password='a b' user=u")
    'host=h password=*** user=u'
    """
    text = _USERINFO.sub(r"\1***@", text)
    return _KEYWORD.sub(r"\1***", _URL.sub(lambda m: _redacted_url(m.group(0)), text))


def _redacted_url(url: str) -> str:
    scheme, _, rest = url.partition("://")
    base, question, query = rest.partition("?")
    at = base.rfind("@")  # the last: a password may hold an unencoded "@"
    if at >= 0:
        user, colon, _ = base[:at].partition(":")
        if colon:
            base = f"{user}:***@{base[at + 1 :]}"
    items = []
    for item in query.split("&") if question else []:
        key, equals, _ = item.partition("=")
        items.append(f"{key}=***" if equals and unquote(key).strip().lower() == "password" else item)
    return f"{scheme}://{base}{question}{'&'.join(items)}"


def passwords(url: str) -> list[str]:
    """The password texts a URL holds (raw and decoded, and the parts around an unencoded "@"):
    what a driver's error may echo back outside any URL."""
    _, _, rest = url.partition("://")
    base, _, query = rest.partition("?")
    found = []
    if "@" in base:
        found.append(base[: base.rfind("@")].partition(":")[2])
    for item in query.split("&"):
        key, _, value = item.partition("=")
        if unquote(key).strip().lower() == "password":
            found.append(value)
    pieces = {
        piece for secret in found for text in (secret, unquote(secret)) for piece in (text, *text.split("@"))
    }
    return sorted((p for p in pieces if len(p) >= 3), key=len, reverse=True)
