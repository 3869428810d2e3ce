"""``skat serve``'s server: textual-serve's, told apart by how it was stopped, and quick to stop.

textual-serve ends on SIGINT and SIGTERM alike and returns normally, so ``skat serve``
would exit 0; here each signal is noted, so that Ctrl+C exits 130 and SIGTERM 143 as
every other command does.  On shutdown each open browser session is ended at once
instead of waiting until aiohttp gives up on its websocket.
"""

from __future__ import annotations

import asyncio
import signal

from textual_serve.server import Server

EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}  # the shell's codes for a stop by these signals


class TableServer(Server):
    exit_code = 0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._sessions: set[asyncio.Task] = set()

    async def on_startup(self, app) -> None:
        await super().on_startup(app)
        loop = asyncio.get_running_loop()
        for signum, code in EXIT_CODES.items():
            loop.add_signal_handler(signum, self._stop, code)  # in place of the server's own

    def _stop(self, code: int) -> None:
        self.exit_code = code
        self.request_exit()

    async def handle_websocket(self, request):
        task = asyncio.current_task()
        self._sessions.add(task)
        try:
            return await super().handle_websocket(request)
        finally:
            self._sessions.discard(task)

    async def on_shutdown(self, app) -> None:
        # a cancelled session closes its websocket and tells its table to quit
        for task in list(self._sessions):
            task.cancel()
        await asyncio.gather(*self._sessions, return_exceptions=True)
        await super().on_shutdown(app)
