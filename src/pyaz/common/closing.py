"""A context manager base for objects that own a resource and free it in ``close()``."""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["ClosesOnExit"]


class ClosesOnExit:
    """A context manager that calls ``self.close()`` on leaving the ``with`` block."""

    def close(self) -> object:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
