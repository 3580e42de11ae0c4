"""SGF (Smart Game Format, FF[4]) records of Go games: write one, read the main line back.

Supported: the root's ``SZ`` (square boards 5..19), ``KM`` (komi), ``AB``/``AW`` setup stones
(single points or ``aa:cc`` rectangles), ``PL`` (side to move after the setup) and ``RE``;
then the ``B``/``W`` moves of the main line (the first variation at every branch). A pass is
``B[]`` (or ``B[tt]``, the FF[3] form). Other properties are kept in ``SgfGame.properties``
and otherwise ignored. Anything else (malformed text, another game than Go, setup stones after
the root, an illegal move) raises ``ValueError`` saying what and where.

Numbers follow SGF's own syntax (``GM``, ``SZ``: Number = ``[+-]`` digits; ``KM``: Real =
Number with an optional ``.`` and digits), in ASCII digits: ``KM[6_5]``, ``SZ[1 9]`` or digits of
other scripts are a ``ValueError`` naming the property and its value, not 65 or 19. Variations
may nest as deep as the text goes (the parser keeps its own stack, not Python's).

SGF points are two letters, column then row, both from ``a`` at the top-left, so ``"cb"`` on
a 9x9 board is row 1, column 2: action ``1 * 9 + 2`` (GTP vertex ``C8``).

    >>> import pyaz
    >>> start = pyaz.make("go", size=9)
    >>> text = start.to_sgf(["E5", "C3", "pass", "pass"])
    >>> pyaz.Go.from_sgf(text).status().name
    'SECOND_PLAYER_WIN'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyaz._core import Go, Status

__all__ = [
    "SgfGame",
    "action_to_sgf_point",
    "go_from_sgf",
    "go_to_sgf",
    "parse_sgf",
    "sgf_point_to_action",
    "write_sgf",
]

Move = int | str


@dataclass
class SgfGame:
    """The main line of an SGF Go record, as pyaz actions (``size * size`` is the pass)."""

    size: int
    komi: float
    black_stones: list[int] = field(default_factory=list)
    white_stones: list[int] = field(default_factory=list)
    to_move: int = 0  # 0 Black, 1 White: who plays first after the setup
    moves: list[int] = field(default_factory=list)
    result: str | None = None
    properties: dict[str, list[str]] = field(default_factory=dict)  # root properties, raw

    def start(
        self,
        *,
        superko: bool = False,
        allow_suicide: bool = False,
        max_game_length: int | None = None,
        history: int = 0,
    ) -> Go:
        """The position before the first move: the setup stones, ``to_move`` to play."""
        empty = Go(
            self.size,
            komi=self.komi,
            superko=superko,
            allow_suicide=allow_suicide,
            max_game_length=max_game_length,
            history=history,
        )
        return empty.with_stones(self.black_stones, self.white_stones, self.to_move)

    def final(self, **rules: Any) -> Go:
        """The position after the main line (``rules``: :meth:`start`'s keywords); ValueError
        names the first illegal move."""
        state = self.start(**rules)
        for number, action in enumerate(self.moves, start=1):
            if not state.is_legal(action):
                colour = "BW"[state.to_move()]
                point = action_to_sgf_point(action, self.size)
                why = "the game is over" if state.is_terminal() else "illegal in pyaz's rules"
                raise ValueError(
                    f"SGF move {number} {colour}[{point}] ({state.action_to_vertex(action)}): {why}"
                )
            state.apply(action)
        return state


# --------------------------------------------------------------------------- points


def action_to_sgf_point(action: int, size: int) -> str:
    """SGF point of an action on a size x size board; '' for the pass."""
    if action == size * size:
        return ""
    if not 0 <= action < size * size:
        raise ValueError(f"action {action} is out of range for a {size}x{size} board")
    row, col = divmod(action, size)
    return chr(ord("a") + col) + chr(ord("a") + row)


def sgf_point_to_action(point: str, size: int) -> int:
    """Action of an SGF point; '' (and 'tt' on boards up to 19x19) is the pass."""
    if point == "" or (point == "tt" and size <= 19):
        return size * size
    if len(point) != 2 or not point.isalpha() or not point.islower():
        raise ValueError(f"bad SGF point {point!r} (expected two letters a..s, e.g. 'dd')")
    col, row = ord(point[0]) - ord("a"), ord(point[1]) - ord("a")
    if col >= size or row >= size:
        raise ValueError(f"SGF point {point!r} is off the {size}x{size} board")
    return row * size + col


def _point_list(values: Iterable[str], size: int) -> list[int]:
    """Points of an AB/AW list, expanding 'aa:cc' rectangles."""
    actions: list[int] = []
    for value in values:
        if ":" not in value:
            action = sgf_point_to_action(value, size)
            if action == size * size:
                raise ValueError(f"setup point [{value}] is not a board point")
            actions.append(action)
            continue
        first, last = (sgf_point_to_action(v, size) for v in value.split(":", 1))
        (r0, c0), (r1, c1) = divmod(first, size), divmod(last, size)
        for row in range(min(r0, r1), max(r0, r1) + 1):
            actions.extend(row * size + col for col in range(min(c0, c1), max(c0, c1) + 1))
    return actions


# --------------------------------------------------------------------------- parsing

Node = dict[str, list[str]]


@dataclass
class _Tree:
    nodes: list[Node]
    children: list[_Tree]


class _Parser:
    """The SGF grammar (Collection = GameTree+; GameTree = "(" Node+ GameTree* ")"), parsed
    with a stack of open game trees, so that nesting depth is bounded by the text only."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str) -> ValueError:
        line = self.text.count("\n", 0, self.pos) + 1
        return ValueError(f"bad SGF at line {line}, offset {self.pos}: {message}")

    def peek(self) -> str:
        """The next character after white space ('' at the end of the text)."""
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = repr(self.peek()) if self.peek() else "the end of the text"
            raise self.error(f"expected {char!r}, found {found}")
        self.pos += 1

    def game_tree(self) -> _Tree:
        """One game tree and all its variations, without recursion."""
        self.expect("(")
        root = _Tree(self.nodes(), [])
        open_trees = [root]  # the trees whose ')' is still to come, innermost last
        while open_trees:
            if self.peek() == "(":
                self.pos += 1
                child = _Tree(self.nodes(), [])
                open_trees[-1].children.append(child)
                open_trees.append(child)
            else:
                self.expect(")")
                open_trees.pop()
        return root

    def nodes(self) -> list[Node]:
        """The node sequence that starts a game tree (after its '(')."""
        nodes: list[Node] = []
        while self.peek() == ";":
            self.pos += 1
            nodes.append(self.node())
        if not nodes:
            raise self.error("a game tree must start with a node (';')")
        return nodes

    def node(self) -> Node:
        properties: Node = {}
        while self.peek().isalpha():
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos].isalpha():
                self.pos += 1
            # FF[3] allowed lower-case letters inside identifiers (e.g. "CoPyright").
            ident = "".join(c for c in self.text[start : self.pos] if c.isupper())
            if not ident:
                raise self.error(f"bad property name {self.text[start : self.pos]!r}")
            values: list[str] = []
            while self.peek() == "[":
                values.append(self.value())
            if not values:
                raise self.error(f"property {ident} has no value")
            if ident in properties:
                raise self.error(f"property {ident} appears twice in one node")
            properties[ident] = values
        return properties

    def value(self) -> str:
        start = self.pos
        self.pos += 1  # '['
        chars: list[str] = []
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\":
                self.pos += 2
                escaped = self.text[self.pos - 1 : self.pos]
                if escaped != "\n":  # an escaped line break is a soft break
                    chars.append(escaped)
                continue
            self.pos += 1
            if char == "]":
                return "".join(chars)
            chars.append(char)
        self.pos = start
        raise self.error("property value never closed (missing ']')")


def _single(root: Node, ident: str) -> str | None:
    values = root.get(ident)
    if values is None:
        return None
    if len(values) != 1:
        raise ValueError(f"SGF property {ident} must have one value, got {len(values)}")
    return values[0].strip()


_NUMBER = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")


def _shown(ident: str, text: str) -> str:
    """``IDENT[text]`` for a message, the text cut to 40 characters."""
    return f"{ident}[{text if len(text) <= 40 else text[:40] + '...'}]"


def _number(root: Node, ident: str) -> int | None:
    """The SGF Number of property ``ident`` (None if absent); ValueError naming it otherwise.
    Numbers of more than 9 digits count as +-10**9 (no board or game type is that large)."""
    text = _single(root, ident)
    if text is None:
        return None
    if not _NUMBER.fullmatch(text):
        raise ValueError(f"SGF {_shown(ident, text)} is not a number (an SGF number: [+-]0-9)")
    sign = -1 if text[0] == "-" else 1
    digits = text.lstrip("+-").lstrip("0")
    return sign * (int(digits or "0") if len(digits) <= 9 else 10**9)


def _board_size(root: Node) -> int:
    text = _single(root, "SZ")
    if text is None:
        return 19  # the SGF default for Go
    if ":" in text:
        raise ValueError(f"SGF {_shown('SZ', text)}: pyaz Go boards are square, 5..19")
    size = _number(root, "SZ")
    assert size is not None
    if not 5 <= size <= 19:
        raise ValueError(f"SGF {_shown('SZ', text)}: pyaz Go boards are 5x5 to 19x19")
    return size


def _komi(root: Node, size: int) -> float:
    text = _single(root, "KM")
    if text is None:
        return float(Go.default_komi(size))
    shown = _shown("KM", text)
    try:
        komi = float(text)
    except ValueError:
        raise ValueError(f"SGF {shown} is not a number") from None
    if not math.isfinite(komi):
        raise ValueError(f"SGF {shown} is not a finite number")
    if not _REAL.fullmatch(text):  # Python's float also takes 6_5, 1e3, other scripts' digits
        raise ValueError(f"SGF {shown} is not an SGF real number ([+-]0-9[.0-9])")
    return komi


def parse_sgf(text: str) -> SgfGame:
    """Reads the first game of an SGF collection (main line only); ValueError if malformed."""
    if not isinstance(text, str):
        raise TypeError(f"parse_sgf takes the SGF text as str, got {type(text).__name__}")
    parser = _Parser(text)
    tree = parser.game_tree()
    while parser.peek() == "(":  # further games of the collection are checked, then ignored
        parser.game_tree()
    if parser.peek():
        raise parser.error(f"unexpected {parser.peek()!r} after the last game tree")
    nodes = list(tree.nodes)  # the main line: the first variation at every branch
    while tree.children:
        tree = tree.children[0]
        nodes.extend(tree.nodes)
    root = nodes[0]
    game_type = _number(root, "GM")
    if game_type is not None and game_type != 1:
        raise ValueError(f"SGF {_shown('GM', _single(root, 'GM') or '')} is not Go (GM[1])")
    size = _board_size(root)
    game = SgfGame(size=size, komi=_komi(root, size), properties=dict(root))
    game.black_stones = _point_list(root.get("AB", []), size)
    game.white_stones = _point_list(root.get("AW", []), size)
    both = sorted(set(game.black_stones) & set(game.white_stones))
    if both:
        raise ValueError(f"SGF AB and AW both hold point [{action_to_sgf_point(both[0], size)}]")
    game.result = _single(root, "RE")
    colours: list[int] = []
    for number, node in enumerate(nodes):
        if number > 0 and any(key in node for key in ("AB", "AW", "AE")):
            raise ValueError(f"SGF node {number}: setup stones after the root are not supported")
        played = [key for key in ("B", "W") if key in node]
        if len(played) == 2:
            raise ValueError(f"SGF node {number} has both a B and a W move")
        for key in played:
            if len(node[key]) != 1:
                raise ValueError(f"SGF node {number}: {key} must have one value")
            game.moves.append(sgf_point_to_action(node[key][0].strip(), size))
            colours.append(0 if key == "B" else 1)
    player = _single(root, "PL")
    if player is not None and player.upper() not in ("B", "W"):
        raise ValueError(f"SGF PL[{player}] must be B or W")
    game.to_move = "BW".index(player.upper()) if player else (colours[0] if colours else 0)
    for number, colour in enumerate(colours):
        if colour != (game.to_move + number) % 2:
            raise ValueError(
                f"SGF move {number + 1} is by {'BW'[colour]}, but {'BW'[1 - colour]} is to move "
                "(pyaz needs alternating moves; write a pass in between)"
            )
    _check_setup_liberties(game)
    game.final(allow_suicide=True, max_game_length=10**6)  # ValueError names an illegal move
    return game


def _check_setup_liberties(game: SgfGame) -> None:
    """ValueError naming a setup stone whose group has no liberty (no game reaches that)."""
    size = game.size
    colour = {point: 1 for point in game.black_stones} | {point: 2 for point in game.white_stones}
    seen: set[int] = set()
    for start in colour:
        if start in seen:
            continue
        group, frontier, free = {start}, [start], False
        while frontier:
            row, col = divmod(frontier.pop(), size)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if not (0 <= r < size and 0 <= c < size):
                    continue
                neighbour = r * size + c
                if neighbour not in colour:
                    free = True
                elif colour[neighbour] == colour[start] and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        seen |= group
        if not free:
            point = action_to_sgf_point(min(group), size)
            raise ValueError(f"SGF setup stone [{point}] belongs to a group with no liberties")


# --------------------------------------------------------------------------- writing


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def write_sgf(
    size: int,
    moves: Sequence[int],
    *,
    komi: float,
    black_stones: Sequence[int] = (),
    white_stones: Sequence[int] = (),
    to_move: int = 0,
    result: str | None = None,
    extra: dict[str, str] | None = None,
) -> str:
    """An SGF record: root properties and setup, then one node per move (actions)."""
    root = [f"FF[4]GM[1]CA[UTF-8]AP[pyaz]SZ[{size}]KM[{komi:g}]"]
    for ident, points in (("AB", black_stones), ("AW", white_stones)):
        if points:
            root.append(ident + "".join(f"[{action_to_sgf_point(a, size)}]" for a in points))
    if black_stones or white_stones or to_move != 0:
        root.append(f"PL[{'BW'[to_move]}]")
    if result is not None:
        root.append(f"RE[{_escape(result)}]")
    for ident, value in (extra or {}).items():
        root.append(f"{ident}[{_escape(value)}]")
    nodes = [";" + "".join(root)]
    for number, action in enumerate(moves):
        colour = "BW"[(to_move + number) % 2]
        nodes.append(f";{colour}[{action_to_sgf_point(action, size)}]")
    lines = [nodes[0]] + ["".join(nodes[i : i + 10]) for i in range(1, len(nodes), 10)]
    return "(" + "\n".join(lines) + ")\n"


def go_to_sgf(state: Go, moves: Sequence[int | str] = (), result: str | None = None) -> str:
    """SGF record starting at ``state`` (its stones become AB/AW setup) followed by ``moves``.

    ``moves`` are actions or GTP vertices played from ``state`` (checked for legality). RE is
    ``result`` if given, else the score when the moves end the game.
    """
    board = state.board().ravel()
    final = state.clone()
    actions = []
    for number, move in enumerate(moves, start=1):
        try:
            action = final.vertex_to_action(move) if isinstance(move, str) else int(move)
            final.apply(action)
        except ValueError as error:
            raise ValueError(f"move {number} ({move!r}): {error}") from None
        actions.append(action)
    if result is None and final.is_terminal():
        score = final.score()
        draw = final.status() == Status.DRAW
        result = "0" if draw else f"{'B' if score > 0 else 'W'}+{abs(score):g}"
    return write_sgf(
        state.size,
        actions,
        komi=state.komi,
        black_stones=[int(a) for a in (board == 1).nonzero()[0]],
        white_stones=[int(a) for a in (board == 2).nonzero()[0]],
        to_move=state.to_move(),
        result=result,
    )


def go_from_sgf(
    text: str,
    *,
    superko: bool = False,
    allow_suicide: bool = False,
    max_game_length: int | None = None,
    history: int = 0,
) -> Go:
    """The position at the end of an SGF record's main line (komi and size from the record)."""
    return parse_sgf(text).final(
        superko=superko,
        allow_suicide=allow_suicide,
        max_game_length=max_game_length,
        history=history,
    )
