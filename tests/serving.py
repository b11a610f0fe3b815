"""A real waitress server on a free loopback port serving the real Flask app, and an SSE reader."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from pathlib import Path

from companion.app.config import WebConfig, load_config
from companion.app.service import WebServer, start_web
from companion.app.table_service import TableService
from companion.contract.game import Game
from companion.core import Header
from companion.log.store import GameLog
from companion.referee.session import Session


@dataclass
class Served:
    session: Session
    web: WebServer

    @property
    def port(self) -> int:
        return int(self.web.server.effective_port)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        conn.request("GET", path, headers=headers or {})
        resp = conn.getresponse()
        body = resp.read()
        conn.close()
        return resp.status, dict(resp.getheaders()), body

    def get_json(self, path: str) -> object:
        status, _, body = self.get(path)
        assert status == 200, body
        return json.loads(body)


class SSEReader:
    """Reads server-sent events from a live HTTP response, one event at a time."""

    def __init__(self, port: int, path: str = "/events", headers: dict[str, str] | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", path, headers=headers or {})
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        assert self.resp.getheader("Content-Type", "").startswith("text/event-stream")

    def next_event(self) -> dict[str, str]:
        event: dict[str, str] = {}
        while True:
            line = self.resp.readline()
            if not line:
                raise EOFError("stream closed")
            text = line.decode("utf-8").rstrip("\n")
            if text == "":
                if "data" in event or "event" in event:
                    return event
                continue
            if text.startswith(":"):
                continue
            key, _, value = text.partition(":")
            value = value[1:] if value.startswith(" ") else value
            event[key] = event[key] + "\n" + value if key in event else value

    def next_named(self, name: str) -> dict[str, str]:
        while True:
            event = self.next_event()
            if event.get("event") == name:
                return event

    def close(self) -> None:
        self.conn.close()


def serve(session: Session, threads: int = 8) -> Served:
    session.start()
    return Served(session, start_web(session, WebConfig(host="127.0.0.1", port=0, threads=threads), pin="123456"))


@contextmanager
def console_table(folder: Path, pin: str, game: str = "everest") -> Iterator[TableService]:
    """A table as a person starts one: ``companion init --no-hardware`` in ``folder``, then the table
    service on a free local port with referee PIN ``pin``; stopped after."""
    config = folder / "table.toml"
    subprocess.run(
        [sys.executable, "-m", "companion", "init", str(config), "--game", game, "--no-hardware", "--host", "127.0.0.1", "--port", "0"],
        check=True, capture_output=True, cwd=folder,
    )
    service = TableService(load_config(config), pin=pin).start()
    try:
        yield service
    finally:
        service.stop()


@contextmanager
def served_game(path: Path, game: Game[Any], header: Header, threads: int = 8) -> Iterator[Served]:
    """A session of ``game`` on a new log at ``path``, served on a free local port; closed after."""
    game_log = GameLog(path)
    session = Session(game, game_log, header)
    served = serve(session, threads=threads)
    try:
        yield served
    finally:
        served.web.close()
        session.stop()
        game_log.close()


ARRAY_ZONES = """
[[zones]]
name = "pile-1"
kind = "pile"
index = 1
reader = "array:0"
[[zones]]
name = "hand-anna"
kind = "hand_pad"
player = "anna"
reader = "array:1"
[[zones]]
name = "hand-ben"
kind = "hand_pad"
player = "ben"
reader = "array:2"
"""
"""An Escape Master table config's zones for a three-reader array: the pile on channel 0, anna's and
ben's hand pads on 1 and 2 (appended to a config with an ``[array]`` section)."""
