"""A real Mosquitto on a free loopback port, with a generated config, for the venue tests."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
RUN_AS = f"user {pwd.getpwuid(os.getuid()).pw_name}\n"
"""Mosquitto started as root drops to user "mosquitto", who cannot read the test's password file."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """One mosquitto process that a test can kill and start again on the same port."""

    def __init__(self, directory: Path, port: int) -> None:
        self.port = port
        self.conf = directory / "mosquitto.conf"
        self.conf.write_text(f"{RUN_AS}listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("mosquitto did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None


def password_file(path: Path, users: tuple[str, ...]) -> Path:
    """A Mosquitto password file at ``path`` giving each user the password ``pw-<user>``."""
    path.touch()
    for user in users:
        subprocess.run([MOSQUITTO_PASSWD, "-b", str(path), user, f"pw-{user}"], check=True)
    return path


ACL = """\
user venue
topic read venue/#
topic write venue/+/+/replay
pattern write venue/+/%u/event
pattern write venue/+/%u/board
pattern read venue/+/%u/replay
"""
"""The venue's ACL (docs/venue.md): a table writes only under its own username."""

SECURED = """\
use_username_as_clientid true
allow_anonymous false
password_file {passwd}
acl_file {acl}
"""
"""What docs/venue.md puts on the venue's listener: users, the ACL, and client ids bound to users."""


def secured_broker(directory: Path, users: tuple[str, ...]) -> Broker:
    """A Mosquitto set up as docs/venue.md says (plain TCP): a password per user (``pw-<user>``), the
    ACL, client ids bound to usernames, and the packet limit. Not started."""
    passwd = password_file(directory / "passwd", users)
    (directory / "acl").write_text(ACL)
    broker = Broker(directory, free_port())
    broker.conf.write_text(
        RUN_AS + f"max_packet_size {PACKET_LIMIT}\nlistener {broker.port} 127.0.0.1\n"
        + SECURED.format(passwd=passwd, acl=directory / "acl") + "persistence false\n"
    )
    return broker


PACKET_LIMIT = 262144
"""``max_packet_size`` in docs/venue.md: 256 KiB, four times a table's largest board (64 KiB)."""


def require_mosquitto() -> None:
    """Skip (with the reason) only where mosquitto truly cannot be installed; on CI it must be there."""
    missing = [p for p in (MOSQUITTO, MOSQUITTO_PASSWD) if not Path(p).exists()]
    if not missing:
        return
    why = f"{', '.join(missing)} missing: 'make test' installs Debian's mosquitto (make broker, as root)"
    if os.environ.get("CI"):
        pytest.fail(why + "; CI must have it")
    pytest.skip(why)


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    require_mosquitto()
    b = Broker(tmp_path, free_port())
    b.start()
    try:
        yield b
    finally:
        b.kill()
