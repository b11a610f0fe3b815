"""Waiting for threads in tests: every wait has a timeout, and says what it waited for."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def wait_until(condition: Callable[[], object], timeout: float = 5.0, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class EmulatorProcess:
    """The tag emulator in its own process, driven through its stdin."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.path = f"udp:127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hardware.sim.tag_emulator", "--port", str(port)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self._reply() == "ready"

    def _reply(self, timeout: float = 10.0) -> str:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise AssertionError("the tag emulator did not answer")
        return self.proc.stdout.readline().decode().strip()

    def command(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((text + "\n").encode())
        self.proc.stdin.flush()
        reply = self._reply()
        assert reply.startswith("ok"), reply

    def present(self, uid: str) -> None:
        self.command(f"present {uid}")

    def remove(self) -> None:
        self.command("remove")

    def close(self) -> None:
        try:
            self.command("quit")
        except (AssertionError, BrokenPipeError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
