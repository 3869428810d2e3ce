"""One table per data folder: a lock file holding the owner's process id.

Two tables on one folder would overwrite each other's saves.  A lock left by
a process that no longer runs (a crash, a killed terminal) is taken over.
"""

from __future__ import annotations

import os
from pathlib import Path

LOCK_NAME = "table.lock"


class DataDirLocked(Exception):
    """Another running table holds the lock."""

    def __init__(self, pid: int, directory: Path) -> None:
        super().__init__(f"another skat table (pid {pid}) is using {directory}; close it first")
        self.pid = pid


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it runs, as another user
    except OSError:
        return False
    return True


def _owner(path: Path) -> int | None:
    """The pid in the lock file, or None when it is unreadable or not a pid (a stale lock)."""
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() and int(text) > 0 else None


class DataDirLock:
    """``acquire`` takes the lock (raises DataDirLocked or OSError); ``release`` drops it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_NAME
        self.held = False

    def acquire(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        # The pid is written first and the lock appears complete by a hard link,
        # so another table never reads a lock file without its pid.
        mine = self.directory / f"{LOCK_NAME}.{os.getpid()}"
        mine.write_text(f"{os.getpid()}\n", encoding="ascii")
        try:
            self._take(mine)
        finally:
            mine.unlink(missing_ok=True)

    def _take(self, mine: Path) -> None:
        for _ in range(5):
            try:
                os.link(mine, self.path)
            except FileExistsError:
                owner = _owner(self.path)
                if owner is not None and _running(owner):
                    raise DataDirLocked(owner, self.directory) from None
                # Stale: read again right before removing, so that a lock another
                # table has just taken over is not removed by mistake.
                if _owner(self.path) == owner:
                    self.path.unlink(missing_ok=True)
                continue
            self.held = True
            return
        raise OSError(f"cannot take the lock {self.path}")

    def release(self) -> None:
        if self.held and _owner(self.path) == os.getpid():
            self.path.unlink(missing_ok=True)
        self.held = False


TABS_FOLDER = "browser-tabs"
"""Under the data folder: one folder per browser tab's table (``skat serve``)."""


class AllTablesBusy(Exception):
    """Every browser tab folder is held by a running table."""

    def __init__(self, count: int, directory: Path) -> None:
        super().__init__(f"all {count} browser tables of this server are in use ({directory}); "
                         "close a tab, then reload this one")
        self.count = count


def lock_tab_folder(root: Path, count: int) -> DataDirLock:
    """The lock of the first of ``root/browser-tabs/1`` … ``count`` that no running table holds.
    A folder is kept after its tab closes, so the next tab (or a reload) resumes its series;
    raises AllTablesBusy, or OSError when a folder cannot be made."""
    for number in range(1, count + 1):
        lock = DataDirLock(root / TABS_FOLDER / str(number))
        try:
            lock.acquire()
        except DataDirLocked:
            continue
        return lock
    raise AllTablesBusy(count, root / TABS_FOLDER)
