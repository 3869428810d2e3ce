"""The ``skat`` subcommands that report in the terminal, one module each (``skat_tui.cli``
parses and dispatches): ``analyze``, ``review``, ``tournament``, ``solve`` and ``replay --json``."""

EXIT_INTERRUPTED = 130  # the shell's code for a stop by SIGINT
EXIT_TERMINATED = 143  # and by SIGTERM
DEFAULT_TOURNAMENT_DEALS = 100
DEFAULT_TOURNAMENT_SEED = 1
