"""Issue 26, item 6: the referee PIN and the broker password never sit where another user on the Pi
can read them. ``companion init`` writes the config 0600; ``companion serve`` (run as a process)
refuses a config that holds either and that group or others can read, with one line naming the fix;
and either secret may live in a 0600 file of its own named by the config (``[web] pin_file``,
``[broker] password_file``), which is refused in turn when others can read it."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.config import load_config
from companion.cli import main
from companion.core.errors import ConfigError
from tests.test_serve import _start

PIN = "73914286"


def config_with(tmp_path: Path, web: str = "", broker: str = "") -> Path:
    """``companion init --no-hardware`` (Everest, loopback, any port), then the given lines in [web] and a [broker]."""
    path = tmp_path / "table.toml"
    assert main(["init", str(path), "--no-hardware", "--game", "everest", "--host", "127.0.0.1", "--port", "0", "--force"]) == 0
    text = path.read_text(encoding="utf-8").replace('pin = ""', web)
    if broker:
        text += f'\n[broker]\nhost = "127.0.0.1"\nport = 1\nvenue = "cafe"\ntable = "t1"\nusername = "t1"\n{broker}\n'
    path.write_text(text, encoding="utf-8")
    return path


def serve_refusal(path: Path) -> str:
    """``companion serve`` on ``path`` as a process, which must refuse at once: its one line of stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--config", str(path)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def test_init_writes_the_config_for_its_owner_only(tmp_path: Path) -> None:
    plain, bare = tmp_path / "table.toml", tmp_path / "bare.toml"
    assert main(["init", str(plain)]) == 0
    assert main(["init", str(bare), "--no-hardware", "--game", "the-mountain"]) == 0
    old = tmp_path / "old.toml"
    old.write_text("# an older config\n", encoding="utf-8")
    old.chmod(0o644)
    assert main(["init", str(old), "--force"]) == 0
    for path in (plain, bare, old):
        assert path.stat().st_mode & 0o777 == 0o600, path


@pytest.mark.parametrize(
    ("web", "broker", "held"),
    [(f'pin = "{PIN}"', "", "web.pin"), ('pin = ""', 'password = "pw-t1-secret"', "broker.password")],
)
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_serve_refuses_a_config_others_can_read_that_holds_a_secret(tmp_path: Path, web: str, broker: str, held: str, mode: int) -> None:
    path = config_with(tmp_path, web, broker)
    path.chmod(mode)
    line = serve_refusal(path)
    assert held in line and f"chmod 600 {path}" in line
    assert PIN not in line and "pw-t1-secret" not in line
    assert not (tmp_path / "everest.sqlite").exists()  # refused before anything started


@pytest.mark.slow
def test_serve_starts_with_the_pin_in_a_config_at_0600(tmp_path: Path) -> None:
    path = config_with(tmp_path, f'pin = "{PIN}"')
    path.chmod(0o600)
    proc, url, pin = _start(path)
    try:
        assert url and pin == PIN
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


@pytest.mark.slow
def test_secrets_in_their_own_0600_files_leave_the_config_readable(tmp_path: Path) -> None:
    (tmp_path / "pin").write_text(PIN + "\n", encoding="utf-8")
    (tmp_path / "broker-password").write_text("pw-t1-secret\n", encoding="utf-8")
    for name in ("pin", "broker-password"):
        (tmp_path / name).chmod(0o600)
    path = config_with(tmp_path, 'pin_file = "pin"', 'password_file = "broker-password"')
    path.chmod(0o644)  # nothing secret in it
    config = load_config(path)
    assert config.web.pin == PIN and config.broker is not None and config.broker.password == "pw-t1-secret"
    proc, url, pin = _start(path)
    try:
        assert pin == PIN
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0


@pytest.mark.parametrize(
    ("web", "broker", "key", "why"),
    [
        ('pin_file = "pin"', "", "web.pin_file", "chmod 600"),
        ('pin = ""', 'password_file = "pin"', "broker.password_file", "chmod 600"),
        ('pin_file = "missing"', "", "web.pin_file", "cannot read"),
        (f'pin = "{PIN}"\npin_file = "pin"', "", "web.pin_file", "not both"),
    ],
)
def test_a_secret_file_others_can_read_or_missing_is_refused(tmp_path: Path, web: str, broker: str, key: str, why: str) -> None:
    secret = tmp_path / "pin"
    secret.write_text(PIN, encoding="utf-8")
    secret.chmod(0o644)
    path = config_with(tmp_path, web, broker)
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert key in str(refused.value) and why in str(refused.value)
    assert PIN not in str(refused.value)
    line = serve_refusal(path)
    assert key in line and why in line


def test_a_weak_pin_in_a_pin_file_is_refused_naming_the_file_key(tmp_path: Path) -> None:
    secret = tmp_path / "pin"
    secret.write_text("12345678\n", encoding="utf-8")
    secret.chmod(0o600)
    with pytest.raises(ConfigError, match=r"web\.pin_file: the PIN is a run"):
        load_config(config_with(tmp_path, 'pin_file = "pin"'))
