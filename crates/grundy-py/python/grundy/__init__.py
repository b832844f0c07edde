"""grundy: Sprague-Grundy values, winners and winning moves of impartial games.

The engine is the Rust library behind the ``grundy`` command line; this
package speaks the same language::

    >>> import grundy
    >>> r = grundy.value("sub:1,2,3 3 4 5 + nim 7")   # the CLI's words
    >>> r.winner, r.nim_sum
    ('first', 5)
    >>> grundy.seq("0.07", 20).tolist()                # heaps 0..=20 (a numpy array)
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    >>> grundy.period("0.137").period
    34

Games can be defined in Python by subclassing :class:`Game`; they are solved
by the same memoised engine (cycles get generalised values, as scripts do)
and can be added to built-in games in one sum.

Errors in specs or positions raise :class:`ValueError` with the command
line's message. Long work (``seq`` to 10**8, ``period``) releases the GIL and
stops with :class:`KeyboardInterrupt` on Ctrl-C.
"""

from __future__ import annotations

import dataclasses
import html
import json
from dataclasses import dataclass, field
from typing import Any, Dict, Hashable, Iterable, List, Optional, Sequence, Tuple, Union

from . import _grundy
from ._grundy import Sum
from . import census  # noqa: E402  (grundy.census.run, run_dask, row)

__all__ = [
    "Game",
    "Sum",
    "Component",
    "Move",
    "Value",
    "Period",
    "Pattern",
    "Quotient",
    "value",
    "seq",
    "period",
    "pattern",
    "quotient",
    "table",
    "graph",
    "Graph",
    "games",
    "nim_add",
    "nim_mul",
    "nim_inv",
    "DEFAULT_MAX_STATES",
]

#: The most positions a computation may tabulate or remember, unless
#: ``max_states=`` says otherwise (the command line's ``--max-states``).
DEFAULT_MAX_STATES: int = _grundy.DEFAULT_MAX_STATES

#: How many winning moves are listed unless ``max_moves=`` says otherwise
#: (as ``grundy value --json``).
DEFAULT_MAX_MOVES = 1000


def _default(method):
    method._grundy_default = True
    return method


class Game:
    """A game defined in Python, solved by the Rust engine.

    Subclass it and define ``moves(pos)``, returning the options of a
    position: each option is a position, or ``grundy.Sum([a, b, ...])`` for a
    move that leaves several independent components (a heap split in two)::

        class Kayles(grundy.Game):
            def moves(self, n):
                return [grundy.Sum([a, n - take - a])
                        for take in (1, 2) if take <= n
                        for a in range((n - take) // 2 + 1)]

        grundy.value(Kayles(), 10, 11).winner       # 'first'
        grundy.seq(Kayles(), 100)                    # heaps 0..=100 as positions 0..=100

    Positions are any hashable Python values: ints, strings and tuples are
    handed to the engine as values (lists are accepted too and come back as
    tuples); other hashable objects (frozensets, your own immutable classes)
    are kept as they are. Results give back the positions themselves.

    Optional methods:

    - ``components(pos)``: the independent parts of a position (their values
      are XORed), e.g. the gaps of a row;
    - ``canonical(pos)``: a representative of the position's symmetry class,
      so that symmetric positions share one memo entry;
    - ``parse(text)``: a position from text (used only where text is read);
    - ``name``: a class attribute naming the game in results (default: the
      class name).

    ``moves`` is called once per position during one call of ``value`` or
    ``seq``: the memo lives for that call. An exception raised in ``moves``
    stops the computation and reaches the caller as that exception. Games
    whose moves can repeat a position are given generalised (loopy) values,
    ``"inf(...)"`` for draws, when every move leaves one position.
    """

    name: Optional[str] = None

    @_default
    def moves(self, pos: Any) -> Iterable[Any]:
        """The options of ``pos``: positions, or ``grundy.Sum([...])`` for splits."""
        raise NotImplementedError("a grundy.Game must define moves(pos)")

    @_default
    def components(self, pos: Any) -> Iterable[Any]:
        """The independent components of ``pos`` (default: ``pos`` whole)."""
        return [pos]

    @_default
    def canonical(self, pos: Any) -> Any:
        """A representative of ``pos``'s symmetry class (default: ``pos``)."""
        return pos

    @_default
    def parse(self, text: str) -> Any:
        """A position from text (default: an int if it is one, else the text)."""
        try:
            return int(text)
        except ValueError:
            return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


@dataclass(frozen=True)
class Component:
    """One component of a sum: its game, its position, and its Grundy value
    (normal play) or genus (misère play analysed by genus theory)."""

    game: str
    position: Any
    grundy: Union[int, str, None] = None
    genus: Optional[str] = None


@dataclass(frozen=True)
class Move:
    """A move in component ``component`` (counted from 0) from position
    ``frm`` to the parts ``to`` it leaves (empty: nothing is left; two heaps
    after a split). ``to_dict()`` writes ``frm`` as ``"from"``, as the CLI."""

    component: int
    frm: Any
    to: List[Any]

    def to_dict(self) -> Dict[str, Any]:
        return {"component": self.component, "from": self.frm, "to": list(self.to)}


def _json_value(v: Any) -> Any:
    # The command line writes values beyond 64 bits as strings.
    if isinstance(v, int) and not isinstance(v, bool) and v > 2**64 - 1:
        return str(v)
    return v


@dataclass(frozen=True)
class Value:
    """What :func:`value` finds out about a sum.

    ``winner`` is ``"first"`` (the player to move wins), ``"second"`` or
    ``"draw"`` (loopy games). ``nim_sum`` is an int, or a string for loopy
    sums (``"inf(0,2)"``) and for Treblecross rows that win at once
    (``"win"``); it is ``None`` in misère play, where values do not add.
    ``winning_moves`` lists every winning move unless there are more than
    ``max_moves`` (then ``winning_moves_truncated`` is true).
    ``drawing_moves``: in a drawn sum, the moves that keep the draw.
    Misère results say which ``method`` decided them (``"bouton"``,
    ``"genus"`` or ``"search"``) and give each component's genus when known.
    """

    components: List[Component]
    nim_sum: Union[int, str, None]
    winner: str
    winning_moves: List[Move]
    winning_moves_truncated: bool = False
    drawing_moves: List[Move] = field(default_factory=list)
    misere: bool = False
    method: Optional[str] = None

    @property
    def first_player_wins(self) -> bool:
        return self.winner == "first"

    def to_dict(self) -> Dict[str, Any]:
        """The same object as ``grundy value --json`` (``--misere --json``)."""
        components = []
        for c in self.components:
            entry: Dict[str, Any] = {"game": c.game, "position": c.position}
            if not self.misere:
                entry["grundy"] = _json_value(c.grundy)
            elif c.genus is not None:
                entry["genus"] = c.genus
            components.append(entry)
        if self.misere:
            return {
                "play": "misere",
                "method": self.method,
                "components": components,
                "winner": self.winner,
                "winning_moves": [m.to_dict() for m in self.winning_moves],
                "winning_moves_truncated": self.winning_moves_truncated,
            }
        return {
            "components": components,
            "nim_sum": _json_value(self.nim_sum),
            "winner": self.winner,
            "winning_moves": [m.to_dict() for m in self.winning_moves],
            "winning_moves_truncated": self.winning_moves_truncated,
            "drawing_moves": [m.to_dict() for m in self.drawing_moves],
        }

    def to_json(self, **kwargs: Any) -> str:
        """``to_dict()`` as JSON text; positions that are not JSON values
        (positions of Python games) are written with ``str``."""
        kwargs.setdefault("default", str)
        return json.dumps(self.to_dict(), **kwargs)

    def _repr_html_(self) -> str:
        e = lambda x: html.escape(str(x))  # noqa: E731
        third = "genus" if self.misere else "grundy"
        rows = "".join(
            f"<tr><td>{i}</td><td><code>{e(c.game)}</code></td><td><code>{e(c.position)}</code></td>"
            f"<td>{e(c.genus if self.misere else c.grundy) if (c.genus if self.misere else c.grundy) is not None else ''}</td></tr>"
            for i, c in enumerate(self.components)
        )
        outcome = {
            "first": "first player wins",
            "second": "second player wins",
            "draw": "draw",
        }[self.winner]
        if self.misere:
            head = f"<p>misère play ({e(self.method)}): <b>{outcome}</b></p>"
        else:
            head = f"<p>nim-sum <b>{e(self.nim_sum)}</b>: <b>{outcome}</b></p>"
        moves = self.drawing_moves if self.winner == "draw" else self.winning_moves
        one = len(moves) == 1
        if self.winner == "draw":
            title = "move that keeps the draw" if one else "moves that keep the draw"
        else:
            title = "winning move" if one else "winning moves"
        listed = ""
        if moves:
            more = " (truncated)" if self.winning_moves_truncated else ""
            listed = (
                f"<p>{len(moves)} {title}{more}:</p><table><tr><th>component</th><th>from</th><th>to</th></tr>"
                + "".join(
                    f"<tr><td>{m.component}</td><td><code>{e(m.frm)}</code></td>"
                    f"<td><code>{e(' + '.join(map(str, m.to)) if m.to else '(nothing)')}</code></td></tr>"
                    for m in moves
                )
                + "</table>"
            )
        return (
            f"<div><table><tr><th>#</th><th>game</th><th>position</th><th>{third}</th></tr>{rows}</table>"
            f"{head}{listed}</div>"
        )


@dataclass(frozen=True)
class Period:
    """What :func:`period` finds: ``G(n + period) = G(n) + saltus`` for every
    ``n >= preperiod`` (``None`` when no period was found). ``proven`` says
    whether a theorem proves it (``method`` says which, and how far values
    were checked); ``block`` holds the values of one period."""

    game: str
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    proven: bool
    method: str
    checked_to: int
    block: Optional[List[int]] = field(default=None, repr=False)

    def to_dict(self) -> Dict[str, Any]:
        """The same object as ``grundy period --json``."""
        return dataclasses.asdict(self)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)


class Pattern:
    """What :func:`pattern` finds (``grundy pattern``): ``kind`` is
    ``"periodic"``, ``"arithmetic-periodic"``, ``"runs"``, ``"periodic-2d"``,
    ``"periodic-rows"`` or ``"none"``; ``proven`` says whether a theorem proves it (``method``
    says how it is known); the other fields are those of ``grundy pattern
    --json``, as attributes and in :meth:`to_dict`. :meth:`code` gives the
    O(1) function a contestant pastes."""

    def __init__(self, data: Dict[str, Any], codes: Dict[str, Optional[str]]):
        self._data = data
        self._codes = codes
        for key, value in data.items():
            setattr(self, key, value)

    def code(self, language: str = "python") -> str:
        """The function in ``"cpp"``, ``"python"`` or ``"rust"``; a
        ``ValueError`` when no pattern was found."""
        if language not in self._codes:
            raise ValueError(f"language {language!r}: the languages are cpp, python and rust")
        text = self._codes[language]
        if text is None:
            raise ValueError(f"{self._data['game']}: {self._data['method']}, so there is no code to write")
        return text

    def to_dict(self) -> Dict[str, Any]:
        """The same object as ``grundy pattern --json``."""
        return dict(self._data)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self._data, **kwargs)

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{k}={self._data[k]!r}"
            for k in ("game", "kind", "proven", "preperiod", "period", "saltus", "offset")
            if k in self._data
        )
        return f"Pattern({fields})"

    def _repr_html_(self) -> str:
        import html

        rows = "".join(
            f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>"
            for k, v in self._data.items()
            if k not in ("prefix", "block")
        )
        code = html.escape(self._codes["python"] or "")
        return f"<table>{rows}</table>" + (f"<pre>{code}</pre>" if code else "")


def pattern(
    game: str,
    max: int = 4095,
    *,
    outcome: bool = False,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Pattern:
    """The simplest pattern of a game's values, or of who wins with
    ``outcome=True`` (``grundy pattern``): heaps 0 to ``max`` for heap games,
    the table for board games. ``.code("cpp")`` is the O(1) function."""
    _spec_only(game, "pattern", "a Game's sequence is grundy.seq(game, n)")
    update, bar = _progress_bar(progress, game)
    try:
        data, cpp, python, rust = _grundy.pattern(game, int(max), bool(outcome), max_states, update)
    finally:
        if bar is not None:
            bar.close()
    return Pattern(json.loads(data), {"cpp": cpp, "python": python, "rust": rust})


class Quotient:
    """The misère quotient of a heap game (``grundy quotient``), from
    :func:`quotient`: a commutative monoid with a P-portion such that a sum
    of heaps is a misère P-position exactly when the product of its heaps'
    elements lies in the P-portion.

    ``table`` is the multiplication table as a numpy array (``table[i, j]``
    is the index of i·j; element 0 is the identity), ``p_portion`` the
    P-portion's indices, ``heap_map`` the element of each heap 0..max_heap,
    ``elements`` the elements' names (normal forms), and ``order``,
    ``presentation``, ``relations``, ``generators``, ``tame``,
    ``changed_at`` as in ``grundy quotient --json`` (:meth:`to_dict`)."""

    def __init__(self, data: Dict[str, Any]):
        import numpy as np

        self._data = data
        for key, value in data.items():
            if key != "table":
                setattr(self, key, value)
        self.table = np.array(data["table"], dtype=np.uint32).reshape(data["order"], data["order"])
        self._p = set(data["p_portion"])

    def element(self, heaps: Sequence[int]) -> int:
        """The element of a sum of heaps (each at most ``max_heap``)."""
        x = 0
        for h in heaps:
            h = int(h)
            if h < 0 or h > self.max_heap:
                raise ValueError(f"heap {h} is beyond the quotient, which is of heaps 0 to {self.max_heap}")
            x = int(self.table[x, self.heap_map[h]])
        return x

    def outcome(self, heaps: Sequence[int]) -> str:
        """``"P"`` when the sum of these heaps is a misère P-position (the
        player to move loses), else ``"N"``."""
        return "P" if self.element(heaps) in self._p else "N"

    def to_dict(self) -> Dict[str, Any]:
        """The same object as ``grundy quotient --json``."""
        return dict(self._data)

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self._data, **kwargs)

    def __repr__(self) -> str:
        return (
            f"Quotient(game={self.game!r}, max_heap={self.max_heap}, order={self.order}, "
            f"p_size={self.p_size}, presentation={self.presentation!r})"
        )

    def _repr_html_(self) -> str:
        import html

        shown = min(self.order, 48)
        names = [html.escape(n) for n in self.elements]

        def cell(i: int, j: int) -> str:
            x = int(self.table[i, j])
            style = ' style="background:#fde2b8;font-weight:bold"' if x in self._p else ""
            return f"<td{style}>{names[x]}</td>"

        head = "".join(f"<th>{names[j]}</th>" for j in range(shown))
        rows = "".join(
            f"<tr><th>{names[i]}</th>" + "".join(cell(i, j) for j in range(shown)) + "</tr>"
            for i in range(shown)
        )
        heaps = " ".join(f"{h}:{names[x]}" for h, x in enumerate(self.heap_map))
        more = f"<p>(the first {shown} of {self.order} elements)</p>" if shown < self.order else ""
        kind = f"tame: {self.tame_name}" if self.tame else "wild"
        return (
            f"<p><b>misère quotient of {html.escape(self.game)}</b>, heaps 0 to {self.max_heap}: "
            f"order {self.order}, P-portion {self.p_size} ({kind})</p>"
            f"<p>{html.escape(self.presentation)}</p><p>heaps: {heaps}</p>"
            f"<table><tr><th>·</th>{head}</tr>{rows}</table>{more}"
            "<p>P-portion shaded.</p>"
        )


def quotient(
    game: str,
    max_heap: int = 20,
    *,
    max_order: int = 20000,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Quotient:
    """The misère quotient of a heap game with heaps 0 to ``max_heap``
    (``grundy quotient``)."""
    _spec_only(game, "quotient", "a misère quotient is of a heap game given by its spec, like '0.07'")
    if int(max_heap) < 0:
        raise ValueError(f"max_heap {max_heap}: a heap is at least 0")
    update, bar = _progress_bar(progress, game)
    try:
        data = _grundy.quotient(game, int(max_heap), int(max_order), max_states, update)
    finally:
        if bar is not None:
            bar.close()
    return Quotient(json.loads(data))


GameLike = Union[str, Game]


def _is_game(x: Any) -> bool:
    return not isinstance(x, str) and hasattr(x, "moves")


def _group(game: Any, positions: Sequence[Any]) -> Tuple[Any, List[Any]]:
    if isinstance(game, str):
        return game, [p if isinstance(p, str) else str(p) for p in positions]
    if not _is_game(game):
        raise TypeError(
            f"a game is a spec string such as 'nim' or 'sub:1,2,3', or a grundy.Game, not {game!r}"
        )
    return game, list(positions)


def _groups(args: Tuple[Any, ...]) -> List[Tuple[Any, List[Any]]]:
    if len(args) == 1 and isinstance(args[0], list):
        groups = []
        for item in args[0]:
            if isinstance(item, str):
                groups.extend(_groups((item,)))
                continue
            game, *positions = tuple(item)
            groups.append(_group(game, positions))
        return groups
    words: List[Any] = []
    for a in args:
        words.extend(a.split() if isinstance(a, str) else [a])
    groups = []
    current: List[Any] = []
    for w in words + ["+"]:
        # A grundy.Game instance after positions starts the next group too.
        if isinstance(w, Game) and current:
            game, *positions = current
            groups.append(_group(game, positions))
            current = [w]
        elif isinstance(w, str) and w == "+":
            if not current:
                raise ValueError(
                    "a sum cannot start with `+`: write GAME POS... [+ GAME POS...]"
                    if not groups
                    else "a `+` must be followed by a game and its positions, e.g. `+ nim 4`"
                )
            game, *positions = current
            groups.append(_group(game, positions))
            current = []
        else:
            current.append(w)
    return groups


def _move(m: Dict[str, Any]) -> Move:
    return Move(component=m["component"], frm=m["from"], to=list(m["to"]))


def value(
    *sum: Any,
    misere: bool = False,
    max_moves: int = DEFAULT_MAX_MOVES,
    max_states: int = DEFAULT_MAX_STATES,
) -> Value:
    """Values, nim-sum, winner and winning moves of a sum of games.

    The sum is written as on the command line, in one string or several
    arguments (strings are split on whitespace; numbers are positions)::

        grundy.value("sub:1,2,3 3 4 5 + nim 7")
        grundy.value("nim", 3, 5, 7)
        grundy.value(Stones(), 10, 11)                   # a grundy.Game, then its positions
        grundy.value(Stones(), 10, "+ nim 3")            # mixed with built-in games
        grundy.value(Stones(), 10, Kayles(), 4)          # a Game starts a new group

    or as one list of ``(game, position, ...)`` tuples, which is the clearest
    form when positions of a Python game are strings or contain ``"+"``::

        grundy.value([(Stones(), 10, 11), ("nim", 3)])

    Positions of built-in games are read as on the command line (``"3,4"``
    for a square); positions of Python games are Python values.

    ``misere=True`` analyses misère play (the last mover loses);
    ``max_moves`` limits how many winning moves are listed;
    ``max_states`` is the state budget (``--max-states``).
    Returns a :class:`Value`; raises :class:`ValueError` for bad input.
    """
    groups = _groups(sum)
    raw = _grundy.analyze(groups, misere, max_moves, max_states)
    components = [
        Component(
            game=c["game"], position=c["position"], grundy=c.get("grundy"), genus=c.get("genus")
        )
        for c in raw["components"]
    ]
    return Value(
        components=components,
        nim_sum=raw.get("nim_sum"),
        winner=raw["winner"],
        winning_moves=[_move(m) for m in raw["winning_moves"]],
        winning_moves_truncated=raw["winning_moves_truncated"],
        drawing_moves=[_move(m) for m in raw.get("drawing_moves", [])],
        misere=misere,
        method=raw.get("method"),
    )


def _progress_bar(progress: bool, desc: str):
    if not progress:
        return None, None
    try:
        from tqdm.auto import tqdm  # type: ignore
    except ImportError:
        return None, None
    bar = tqdm(total=0, desc=desc, unit=" heaps", unit_scale=True)

    def update(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.refresh()

    return update, bar


def seq(
    game: GameLike,
    stop: int,
    start: int = 0,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
):
    """The Grundy values of heaps ``start..=stop`` (both inclusive) as a
    numpy array: ``uint16`` when every value is below 65536, else ``uint32``
    (``uint64`` if needed). ``a[i]`` is the value of heap ``start + i``.

    ``game`` is a heap game's spec (``"0.07"``, ``"sub:1,2,3"``, ``"kayles"``)
    or a :class:`Game` whose positions are ints (heap n is the int n).
    The values are written by the engine straight into the array. Long runs
    release the GIL, stop with KeyboardInterrupt on Ctrl-C, and show a tqdm
    bar with ``progress=True`` when tqdm is installed.
    """
    update, bar = _progress_bar(progress and isinstance(game, str), str(game))
    try:
        return _grundy.sequence(game, int(start), int(stop), max_states, update)
    finally:
        if bar is not None:
            bar.close()


def period(
    game: str,
    max: int = 1 << 26,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    progress: bool = False,
) -> Period:
    """Finds the period of a heap game, proving it where a theorem allows
    (``grundy period``): tabulates at most ``max`` heaps. Returns a
    :class:`Period`."""
    _spec_only(game, "period", "a Game's sequence is grundy.seq(game, n)")
    update, bar = _progress_bar(progress, game)
    try:
        raw = _grundy.period(game, int(max), max_states, update)
    finally:
        if bar is not None:
            bar.close()
    return Period(**raw)


def table(game: str, *, max_states: int = DEFAULT_MAX_STATES):
    """The board of values of a grid or bar game (``"knight:8"``,
    ``"choco:10x10"``) as a 2-D numpy array, rows first."""
    _spec_only(game, "table", "a Game's values are grundy.value(game, position)")
    return _grundy.table(game, max_states)


@dataclass(frozen=True)
class Graph:
    """The game graph of a small position (``grundy graph``): ``nodes``, each
    ``(position, grundy)`` with the given position first, ``edges`` as
    ``(from, to)`` indices into ``nodes``, and ``svg``, the picture
    ``grundy graph --svg`` draws (shown by notebooks)."""

    game: str
    nodes: List[Tuple[str, Any]]
    edges: List[Tuple[int, int]]
    svg: str = field(repr=False)

    def _repr_svg_(self) -> str:
        return self.svg


def graph(sum: str, *, max_nodes: int = 100, max_states: int = DEFAULT_MAX_STATES) -> Graph:
    """The game graph of a small position of built-in games, written as on
    the command line: ``grundy.graph("sub:1,2,3 7")``. Raises
    :class:`ValueError` for bad input and for graphs of more than
    ``max_nodes`` positions (at most 2000)."""
    if not isinstance(sum, str):
        raise TypeError(f"graph() takes a sum written as on the command line, such as 'sub:1,2,3 7', not {type(sum).__name__}")
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 0:
        raise ValueError(f"max_nodes {max_nodes!r}: a number of positions, at least 1")
    text, svg = _grundy.graph(sum, max_nodes, max_states)
    raw = json.loads(text)
    return Graph(
        game=raw["game"],
        nodes=[(n["position"], n["grundy"]) for n in raw["nodes"]],
        edges=[(a, b) for a, b in raw["edges"]],
        svg=svg,
    )


def _spec_only(game, name: str, instead: str) -> None:
    """Refuses anything but a spec string, naming what to use instead."""
    if not isinstance(game, str):
        raise TypeError(
            f"{name}() takes a game spec such as '0.07', not {type(game).__name__}; {instead}"
        )


def games() -> List[Dict[str, str]]:
    """Every built-in family: ``spec``, ``position``, ``example``, ``about``
    (the keys of ``grundy games --json``)."""
    return _grundy.games()


def nim_add(a: int, b: int) -> int:
    """The nim-sum of two nimbers: XOR, for non-negative ints of any size."""
    a, b = int(a), int(b)
    if a < 0 or b < 0:
        raise ValueError("nimbers are non-negative integers")
    return a ^ b


def nim_mul(a: int, b: int) -> int:
    """The nim-product of two nimbers below 2**64 (Conway's field On2):
    ``nim_mul(2, 2) == 3``. Raises ValueError outside 0..2**64."""
    return _grundy.nim_mul(_nimber(a), _nimber(b))


def nim_inv(a: int) -> int:
    """The nim-inverse of a non-zero nimber below 2**64:
    ``nim_mul(a, nim_inv(a)) == 1``. Raises ValueError for 0."""
    return _grundy.nim_inv(_nimber(a))


def _nimber(a: int) -> int:
    a = int(a)
    if a < 0:
        raise ValueError("nimbers are non-negative integers")
    return a
