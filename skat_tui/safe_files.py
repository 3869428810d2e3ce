"""Writing files so that a crash or a second writer never leaves a half-written
one, and setting damaged files aside without overwriting earlier ones."""

from __future__ import annotations

import os
from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` through a temporary file of this process (two
    processes never share one); raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def set_aside(path: Path) -> Path:
    """Rename a damaged file to ``NAME.broken.json`` (or ``NAME.broken-2.json`` and
    so on: an earlier broken copy is never overwritten); raises OSError."""
    stem = path.name.removesuffix(".json")
    number = 1
    while True:
        target = path.with_name(f"{stem}.broken{'' if number == 1 else f'-{number}'}.json")
        if not target.exists():
            path.replace(target)
            return target
        number += 1
