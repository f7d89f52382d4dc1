"""The JSON-lines channel to the runner, and the error a trace stops with. Standard library only."""

from __future__ import annotations

import json
import os
from typing import IO, Any

# Where boot.py says which descriptor is the messages' own channel.
EVENTS_FD = "GPUCONFIG_EVENTS_FD"
_channel: list[IO[str]] = []  # the channel, once open_channel() has opened it


class TraceError(Exception):
    """Why a trace cannot go on; `kind` is model, input, unsupported or internal."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def open_channel() -> None:
    """Take the channel boot.py kept for the messages (its descriptor is not passed on to child processes)."""
    _channel.append(os.fdopen(int(os.environ.pop(EVENTS_FD)), "w", encoding="utf-8"))


def emit(event: str, **fields: Any) -> None:
    channel = _channel[0]
    channel.write(json.dumps({"event": event, **fields}) + "\n")
    channel.flush()
