"""Files only the service's own user may read: the table secret, the PIN's access file, the PIN
failure counts, the console's game marker."""

from __future__ import annotations

import os
from pathlib import Path


def write_private(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all, readable by its owner only (0600 from its first byte: no
    window at the umask's mode), and on disk before it replaces the old file."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.chmod(tmp, 0o600)  # an old .tmp left by a crash keeps its mode through O_TRUNC
    os.replace(tmp, path)
