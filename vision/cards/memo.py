"""What one picture's reading works out more than once, kept while `predict` reads that picture: the later steps
read many outlines again that an earlier step read already (the standard map scene 13 of its 233 reader crops,
some synthetic Scoundrel tables a third of theirs) and judge the picture's paper lightness three times."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import Any, ParamSpec, TypeVar

import numpy as np

_P = ParamSpec("_P")
_R = TypeVar("_R")

# id(picture) -> (the picture, its memo); holding the picture keeps its id from passing to another meanwhile
_MEMOS: ContextVar[dict[int, tuple[np.ndarray, dict[Any, Any]]] | None] = ContextVar("card_picture_memos",
                                                                                    default=None)


def one_picture(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run `fn` with a memo per picture (`picture_memo`), dropped when the outermost such call returns: no
    picture is changed while it is read, and the next call may get the same buffer with a new frame in it."""
    @wraps(fn)
    def within(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        if _MEMOS.get() is not None:
            return fn(*args, **kwargs)
        token = _MEMOS.set({})
        try:
            return fn(*args, **kwargs)
        finally:
            _MEMOS.reset(token)
    return within


def picture_memo(image: np.ndarray) -> dict[Any, Any] | None:
    """The memo of this picture within a `one_picture` call, None outside one."""
    memos = _MEMOS.get()
    if memos is None:
        return None
    entry = memos.get(id(image))
    if entry is None or entry[0] is not image:
        entry = memos[id(image)] = (image, {})
    return entry[1]


def remembered(image: np.ndarray, key: Any, compute: Callable[[], _R]) -> _R:
    """compute(), once per picture and key within a `one_picture` call."""
    memo = picture_memo(image)
    if memo is None:
        return compute()
    if key not in memo:
        memo[key] = compute()
    return memo[key]
