"""Memory: run a stage that makes many short-lived objects without the cyclic collector's walks."""
import functools
import gc
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def collector_paused(stage: Callable[P, R]) -> Callable[P, R]:
    """Run `stage` with Python's cyclic garbage collector paused (as it was, afterwards).

    An output stage makes hundreds of thousands of small objects that die without cycles; each time
    enough have been made, the collector walks every object the build holds, the whole corpus tree
    included. On a book that walk was a quarter of the diff's and a fifth of the HTML's time, and
    grew with the book. Reference counting still frees everything as before; the few cycles a stage
    makes (pages linked to their neighbours) are collected once the stage is done."""
    @functools.wraps(stage)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return stage(*args, **kwargs)
        finally:
            if was_enabled:
                gc.enable()
    return run
