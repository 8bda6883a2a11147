"""A real PostgreSQL server for the ledger's tests, started from Debian's binaries on 127.0.0.1.

The server runs in a fresh temporary cluster with password (SCRAM) authentication, so that the
tests connect as a team would, password in the URL. PostgreSQL refuses to run as root: under root
the cluster belongs to the ``postgres`` user the Debian package creates, and its programs run as
that user. ``.ci/run`` installs the package; elsewhere, without it, the tests that need a server
skip, except under CI (``$CI``), where a missing server is a failure.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

PASSWORD = "pw-'quoted\"-s3cret"
"""The superuser's password: awkward on purpose, and never to be printed."""

USER = "understudy"


def bindir() -> Path | None:
    """The folder of PostgreSQL's server programs (the newest version Debian installed)."""
    named = os.environ.get("UNDERSTUDY_PG_BINDIR")
    if named:
        return Path(named)
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running server; :meth:`database` makes a new empty database and gives its URL."""

    root: Path
    port: int
    programs: Path
    as_user: list[str]

    def url(self, database: str = "postgres", password: str = PASSWORD) -> str:
        """The URL of ``database`` on this server, password included."""
        from urllib.parse import quote

        return f"postgresql://{USER}:{quote(password, safe='')}@127.0.0.1:{self.port}/{database}"

    def database(self) -> str:
        """A new, empty database's URL."""
        import psycopg

        name = f"ledger_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def restart(self) -> None:
        """Stop the server at once (as a crash would) and start it again on the same port."""
        command = [str(self.programs / "pg_ctl"), "-D", str(self.root / "data"), "-l", str(self.root / "log")]
        command += ["-w", "-m", "immediate"]
        _run([*self.as_user, *command, "restart"])

    def stop(self) -> None:
        """Stop the server at once and remove its cluster."""
        subprocess.run(
            [
                *self.as_user,
                str(self.programs / "pg_ctl"),
                "-D",
                str(self.root / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> Server:
    """Initialise a cluster in a temporary folder and start its server; the server."""
    programs = bindir()
    if programs is None or not (programs / "pg_ctl").exists():
        raise FileNotFoundError("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    root = Path(tempfile.mkdtemp(prefix="understudy-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    pwfile = root / "pw"
    pwfile.write_text(PASSWORD + "\n", encoding="utf-8")
    if as_user:
        os.chown(pwfile, pwd.getpwnam("postgres").pw_uid, -1)
    pwfile.chmod(0o600)
    init = [str(programs / "initdb"), "-D", str(root / "data"), "-U", USER, f"--pwfile={pwfile}"]
    init += ["--auth-host=scram-sha-256", "--auth-local=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8"]
    _run([*as_user, *init])
    port = free_port()
    options = (
        f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={root} -c max_connections=120"
    )
    start_server = [str(programs / "pg_ctl"), "-D", str(root / "data"), "-l", str(root / "log"), "-w"]
    _run([*as_user, *start_server, "-o", options, "start"])
    return Server(root, port, programs, as_user)


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[-3:])} failed: {done.stdout[-500:]} {done.stderr[-500:]}")
