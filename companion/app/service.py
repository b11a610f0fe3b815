"""Running the companion: the session, its log, and the web server, started and stopped as one."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import sys
import threading
import time
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from waitress.server import create_server

from companion.app.config import WebConfig, weak_pin
from companion.log.private_file import write_private
from companion.referee.session import Session

log = logging.getLogger(__name__)


PIN_DIGITS = 8


def new_pin() -> str:
    """A random eight-digit referee PIN, shown at start-up (see :func:`print_welcome`)."""
    while True:
        pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
        if weak_pin(pin) is None:
            return pin


class WebServer:
    """Waitress serving the Flask app: its socket loop in one thread, a worker thread per open stream.

    The loop is driven here, one poll at a time, so that shutting down happens on the loop's own
    thread: closing sockets under a select() running in another thread is a race.
    """

    POLL_S = 0.2

    def __init__(self, app: Any, server: Any) -> None:
        self.app = app
        self.server = server
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="web", daemon=True)
        self.thread.start()

    def held_bytes(self) -> int:
        """Bytes waitress still holds for sockets whose clients have not read them (a backlog gauge)."""
        return sum(int(getattr(channel, "total_outbufs_len", 0)) for channel in list(self.server._map.values()))

    @property
    def url(self) -> str:
        host, port = self.server.effective_host, self.server.effective_port
        shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
        return f"http://{shown}:{port}/"

    def _run(self) -> None:
        server = self.server
        try:
            while not self._stop.is_set() and server._map:
                server.asyncore.loop(timeout=self.POLL_S, map=server._map, count=1)
                self._trim_connections()
        finally:
            for channel in list(server._map.values()):
                if channel is not server.trigger and channel is not server:
                    channel.close()
            server.close()  # the listening socket and the trigger, once
            server.task_dispatcher.shutdown(cancel_pending=True, timeout=5)

    def _trim_connections(self) -> None:
        """No client keeps more than :data:`CONNECTIONS_PER_CLIENT` connections: the idle extras are closed.

        Waitress has a connection limit for all clients together, none per client; one client must
        not fill it (issue 15). A connection with a request in hand (a stream) is never cut here.
        Runs on the loop's own thread, between polls, so closing a socket races nothing.
        """
        server = self.server
        if len(server._map) < CONNECTIONS_PER_CLIENT:
            return
        by_client: dict[str, list[Any]] = {}
        for channel in list(server._map.values()):
            addr = getattr(channel, "addr", None)
            if channel is server or channel is server.trigger or not isinstance(addr, tuple):
                continue
            by_client.setdefault(str(addr[0]), []).append(channel)
        for client, channels in by_client.items():
            if len(channels) <= CONNECTIONS_PER_CLIENT or client in ("127.0.0.1", "::1"):  # the Pi itself
                continue
            idle = sorted((c for c in channels if not c.requests), key=lambda c: c.last_activity)
            for channel in idle[: len(channels) - CONNECTIONS_PER_CLIENT]:
                channel.close()
            log.warning("closed %d idle connections of one client over %d", min(len(idle), len(channels) - CONNECTIONS_PER_CLIENT), CONNECTIONS_PER_CLIENT)

    def close(self) -> None:
        """End every stream, then stop the loop (which closes every connection) and the workers."""
        from web import broadcaster

        if self._stop.is_set():
            return
        hub = broadcaster(self.app)
        hub.shutdown()
        deadline = time.monotonic() + 2.0
        while hub.listeners and time.monotonic() < deadline:  # let streams say goodbye
            time.sleep(0.02)
        self._stop.set()
        self.thread.join(10)
        if self.thread.is_alive():
            log.warning("the web server thread did not stop within 10 s")


def table_secret(path: Path) -> bytes:
    """The table's secret for player links: made once, kept beside the log (mode 0600, also when it was not)."""
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
                log.warning("%s: was readable by others; now mode 0600", path)
            return data
    except FileNotFoundError:
        pass
    data = secrets.token_bytes(32)
    write_private(path, data)
    return data


def lan_url(host: str, port: int) -> str | None:
    """The address a phone on the table's network would use, when serving on every interface."""
    if host not in ("0.0.0.0", "", "::"):
        return f"http://{host}:{port}/"
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    for info in infos:
        address = str(info[4][0])
        if not address.startswith("127."):
            return f"http://{address}:{port}/"
    return None


CHANNEL_TIMEOUT_S = 20
"""Seconds an idle connection (or a request still being sent) is kept."""
CLEANUP_INTERVAL_S = 5
"""How often waitress looks for idle connections."""
CONNECTION_LIMIT = 256
"""Open connections in all; past it waitress stops accepting until some close."""
CONNECTIONS_PER_CLIENT = 24
"""Open connections one address may hold (its streams plus pages); idle extras are closed."""


def start_web(
    session: Session,
    web: WebConfig,
    pin: str,
    secret: bytes | None = None,
    public_url: str | None = None,
    pin_state: Path | None = None,
) -> WebServer:
    from web import create_app

    from web.limits import MAX_BODY, MAX_HEADER

    links_state: Path | None = None
    if session.log.path.name != ":memory:":
        if pin_state is None:
            pin_state = Path(session.log.path).with_suffix(".pins.json")  # beside the log and its .secret
        # The player links, kept at the configured log path's side: the next game's log takes that path.
        links_state = Path(session.log.path).with_suffix(".links.json")

    app = create_app(
        session,
        {
            "REFEREE_PIN": pin,
            "TABLE_SECRET": secret,
            "PUBLIC_URL": public_url,
            "THREADS": web.threads,
            "BIND_HOST": web.host,
            "ALLOWED_HOSTS": tuple(web.hosts),
            "PIN_STATE_PATH": str(pin_state) if pin_state is not None else None,
            "LINKS_PATH": str(links_state) if links_state is not None else None,
        },
    )
    server = create_server(
        app,
        host=web.host,
        port=web.port,
        threads=web.threads,
        # Idle connections (and half-sent requests) are closed after this; a stream is never idle to
        # waitress (it has a request in hand), so a quiet scoreboard is not cut.
        channel_timeout=CHANNEL_TIMEOUT_S,
        cleanup_interval=CLEANUP_INTERVAL_S,
        connection_limit=CONNECTION_LIMIT,
        # Refused with 413 as soon as the head says so, never spooled to disk first.
        max_request_body_size=MAX_BODY,
        max_request_header_size=MAX_HEADER,
        # A stream's output buffer is only recycled at this mark, and keeps what it already sent
        # until then: waitress's 16 MB default would let every open scoreboard hold 16 MB.
        outbuf_high_watermark=64 * 1024,
        ident="table-companion",
    )
    log.info("serving on %s:%s with %d threads", web.host, web.port, web.threads)
    return WebServer(app, server)


def access_lines(shown: str, pin: str, links: Mapping[str, str]) -> list[str]:
    """The PIN and the live player links (``links``: each seated player's page path, ``p/<name>/<token>``)."""
    lines = [f"referee PIN: {pin}   (console: {shown}referee)"]
    return lines + [f"  {player}: {shown}{path}" for player, path in links.items()]


def write_access(access_file: Path, shown: str, pin: str, links: Mapping[str, str]) -> None:
    """The access file (mode 0600), whole: it lists the links that open something now, and no others."""
    write_private(access_file, ("\n".join(access_lines(shown, pin, links)) + "\n").encode("utf-8"))


def print_welcome(
    url: str,
    public: str | None,
    pin: str,
    links: Mapping[str, str],
    access_file: Path | None = None,
    terminal: bool | None = None,
) -> Path | None:
    """What the person starting the companion needs: the address (and its QR code), the PIN, the player links.

    ``links`` maps each seated player to their page path (``web.links.LinkBook.path_for``). The PIN and
    the links are secrets: they are printed only to a terminal. When standard output is not one
    (systemd sends it to the journal, which others may read), they go to ``access_file`` (mode 0600)
    instead and only its path is printed; that path is returned, for the caller to keep it up to date.
    """
    import segno

    shown = public or url
    print(f"scoreboard: {shown}   (big screen: {shown}big; the public log: {shown}log)")
    if terminal is None:
        terminal = sys.stdout.isatty()
    written: Path | None = None
    if terminal:
        try:
            segno.make(shown, error="m").terminal(compact=True)
        except (OSError, UnicodeEncodeError) as exc:  # a terminal that cannot draw it still gets the address
            log.info("no QR code on this terminal: %s", exc)
        for line in access_lines(shown, pin, links):
            print(line)
    elif access_file is not None:
        write_access(access_file, shown, pin, links)
        written = access_file
        print(f"referee PIN and player links: in {access_file} (readable by this user only)")
    else:
        print("referee PIN and player links: not printed (standard output is not a terminal)")
    sys.stdout.flush()
    return written
