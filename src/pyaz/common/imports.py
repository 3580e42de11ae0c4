"""Imports of compiled modules that a Ctrl-C may interrupt.

A KeyboardInterrupt that arrives while a pybind11 extension (ONNX Runtime, OpenVINO) initialises
comes out as ``ImportError: initialization failed``, the interrupt only its cause. A run stopped
by Ctrl-C at that moment would end as an error (exit 1) instead of stopping cleanly (130), and
say nothing of how to resume. :func:`import_interruptibly` gives the interrupt back.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["import_interruptibly"]


def import_interruptibly(name: str) -> ModuleType:
    """``importlib.import_module(name)``, but an ImportError caused by a KeyboardInterrupt is
    raised as that KeyboardInterrupt."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if _interrupted(error):
            raise KeyboardInterrupt from error
        raise


def _interrupted(error: BaseException) -> bool:
    """Whether a KeyboardInterrupt is among the causes and contexts of ``error``."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False
