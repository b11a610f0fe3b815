"""Where the table's secrets may live: the referee PIN (``[web] pin``) and the broker password
(``[broker] password``) sit either in the config, which must then be readable by its owner only
(0600), or in a file of their own named by the config (``[web] pin_file``, ``[broker] password_file``),
which must be 0600 itself. Any other user on the Pi must not read them (docs/security.md).
"""

from __future__ import annotations

import stat
import tomllib
from pathlib import Path

from companion.core.errors import ConfigError

SECRET_KEYS = (("web", "pin"), ("broker", "password"))
"""The config keys that hold a secret when they are not empty."""
OTHERS_READ = stat.S_IRGRP | stat.S_IROTH
MAX_SECRET_BYTES = 4096


def readable_by_others(path: Path) -> bool:
    return bool(path.stat().st_mode & OTHERS_READ)


def read_secret(path: Path, key: str) -> str:
    """The secret in ``path`` (its first line, without surrounding blanks), for the config key ``key``.
    A file that group or others may read, an empty one or one that cannot be read is one
    :class:`ConfigError` naming the key and the fix."""
    try:
        if readable_by_others(path):
            raise ConfigError(f"{key}: {path} can be read by other users; run: chmod 600 {path}")
        with path.open("rb") as handle:
            data = handle.read(MAX_SECRET_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{key}: cannot read {path} ({exc.strerror})") from exc
    if len(data) > MAX_SECRET_BYTES:
        raise ConfigError(f"{key}: {path} is not a secret file (over {MAX_SECRET_BYTES} bytes)")
    try:
        lines = data.decode("utf-8").strip().splitlines()
    except UnicodeDecodeError:
        raise ConfigError(f"{key}: {path} is not UTF-8 text") from None
    if not lines or not lines[0].strip():
        raise ConfigError(f"{key}: {path} is empty")
    return lines[0].strip()


def secrets_in(config_path: Path) -> list[str]:
    """The secret keys that the config file itself holds (``web.pin``, ``broker.password``), not empty."""
    data = tomllib.loads(config_path.read_text(encoding="utf-8"))
    found = []
    for section, key in SECRET_KEYS:
        table = data.get(section)
        if isinstance(table, dict) and table.get(key):
            found.append(f"{section}.{key}")
    return found


def refuse_exposed_config(config_path: Path) -> None:
    """:class:`ConfigError` (one line, naming the fix) when the config holds a secret and group or
    others may read it. Call it after the config loaded (its TOML is known to be good)."""
    held = secrets_in(config_path)
    if held and readable_by_others(config_path):
        raise ConfigError(
            f"{config_path}: holds {' and '.join(held)} but other users can read it; run: chmod 600 {config_path} "
            f"(or move the secret to a 0600 file named by {' / '.join(k + '_file' for k in held)})"
        )
