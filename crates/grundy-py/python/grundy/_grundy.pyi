"""The native module behind `grundy` (PyO3). Use the functions of `grundy`."""

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

DEFAULT_MAX_STATES: int

class Sum:
    """A move that leaves several independent components: ``Sum([a, b])``."""

    def __init__(self, parts: Iterable[Any]) -> None: ...
    @property
    def parts(self) -> Tuple[Any, ...]: ...
    def __len__(self) -> int: ...

def analyze(
    groups: Sequence[Tuple[Any, Sequence[Any]]],
    misere: bool,
    max_moves: int,
    max_states: int,
) -> Dict[str, Any]: ...
def sequence(
    game: Any,
    start: int,
    stop: int,
    max_states: int,
    progress: Optional[Callable[[int, int], None]] = None,
) -> npt.NDArray[np.unsignedinteger[Any]]: ...
def period(
    game: str,
    max: int,
    max_states: int,
    progress: Optional[Callable[[int, int], None]] = None,
) -> Dict[str, Any]: ...
def table(game: str, max_states: int) -> npt.NDArray[np.unsignedinteger[Any]]: ...
def games() -> List[Dict[str, str]]: ...
def canonical_spec(game: str) -> str: ...
def nim_mul(a: int, b: int) -> int: ...
def nim_inv(a: int) -> int: ...
