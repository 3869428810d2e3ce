"""`skat replay FILE --json`: one JSON line per recorded game."""

from __future__ import annotations

import json
import sys


def run_json(path: str) -> int:
    from engine.record import RecordError, iter_records, summary

    failed = 0
    out = sys.stdout
    try:
        handle = open(path, "rb")  # decoded line by line: a bad byte or an endless line fails only its line
    except OSError as exc:
        print(f"skat replay: cannot open {path}: {exc.strerror}", file=sys.stderr)
        return 2
    with handle:
        for item in iter_records(handle):
            if isinstance(item, RecordError):
                failed += 1
                print(f"{path}: {item}", file=sys.stderr)
                continue
            try:
                line = summary(item)
            except ValueError as exc:  # an engine error while replaying
                failed += 1
                print(f"{path}: {RecordError(str(exc), item.line, record_id=item.id)}", file=sys.stderr)
                continue
            if "result_mismatch" in line:
                print(f"{path}: warning: {RecordError(line['result_mismatch'], item.line, record_id=item.id)}",
                      file=sys.stderr)
            out.write(json.dumps(line) + "\n")
    return 1 if failed else 0
