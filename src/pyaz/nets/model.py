"""Policy-value networks sized per game, saved with their config and exported to TorchScript.

``PolicyValueNet(config)`` builds the architecture ``config.arch`` names:

- ``"resnet"`` (:class:`ResNet`): a 3x3 convolution stem and ``blocks`` residual blocks of
  ``filters`` channels (seed 000 Fig. 2, seed 004 Table I); the policy head is a 1x1
  convolution to 2 planes and a linear layer to the action space (logits); the value head is a
  1x1 convolution to ``value_planes`` planes (AlphaZero's 1, the default), a hidden layer of
  ``value_hidden`` units and a tanh output.
  ``dropout`` (seed 001's d) applies before the heads' linear layers.
- ``"azg"`` (:class:`AzgNet`): alpha-zero-general's network, the one seed 001 ran ("4
  convolutional layers and 2 fully connected layers"): four 3x3 convolutions of ``filters``
  channels with batch norm and ReLU (the first two padded, the last two not, so the board
  shrinks by 4), then fully connected layers of 1024 and 512 units with batch norm, ReLU and
  ``dropout``, and the policy logits and tanh value on top. alpha-zero-general's default is 512
  channels (the ``azg`` preset).

Every network maps planes ``[B, C, H, W]`` to ``(policy_logits [B, A], value [B, 1])``.

With ``score_head`` (off by default) a network also predicts the game's final score margin
(KataGo's auxiliary score target: Wu 2019, "Accelerating Self-Play Learning in Go", section 4.1),
normalised to [-1, 1] as :class:`pyaz.SelfPlayRecords` records it: in :class:`ResNet` a head
like the value head (1x1 convolution to 1 plane, batch norm, ReLU, a hidden layer of
``value_hidden`` units, tanh), in :class:`AzgNet` a tanh unit on the last fully connected layer
beside the value's. Only training reads it, through :meth:`PolicyValueNet.forward_with_score`;
``forward`` (the evaluators, TorchScript, ONNX) is unchanged, and without ``score_head`` the
network is exactly the one without it (same parameters and state_dict keys).

With ``threat_line`` k > 0 (off by default) the network computes fixed input planes of its own
from the stones of the first two planes (the player to move's and the opponent's), hand-made
features in KataGo's manner (Wu 2019, appendix A: liberties and ladders among its inputs): the
:class:`ThreatPlanes` of the empty cells that complete a line of k (Connect Four 4, Gomoku 5;
the stem reads ``planes + 2`` channels), with ``threat_depth`` 2 also those that make a new
threat (``planes + 4``), with 3 also the threes and the forks (``planes + 8``). With
``parity_plane`` (Connect Four's ``parity`` mode), the :class:`ParityPlane` of the rows whose
threats decide zugzwang endings (Allis 1988); with ``mobility_planes`` (Othello's ``mobility``
mode), the four :class:`MobilityPlanes`, IAGO's current and potential mobility (Rosenbloom 1982).
Computed inside ``forward``, they reach every evaluator, TorchScript and ONNX alike.
"""

from __future__ import annotations

import dataclasses
import io
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any

import torch
from torch import nn

from pyaz.games import NetworkGameState
from pyaz.games.profiles import games_where, profile
from pyaz.nets.bounds import check_sizes, checked_module, shortened
from pyaz.nets.threat_search import THREAT_SEARCH_PLANES, node_budget


@dataclass(frozen=True)
class NetConfig:
    """Shape of the input and the output, and the size of the network."""

    planes: int
    height: int
    width: int
    actions: int
    blocks: int = 2
    filters: int = 32
    value_hidden: int = 64
    value_planes: int = 1  # the value head's 1x1 convolution (AlphaZero: 1; resnet only)
    dropout: float = 0.3
    arch: str = "resnet"
    score_head: bool = False  # a score head for the auxiliary score target (training only)
    threat_line: int = 0  # k > 0: two fixed planes of the cells completing a line of k
    threat_depth: int = 1  # 2: two more, the cells that make a new threat; 3: threes, forks
    parity_plane: bool = False  # Connect Four: one more plane, the rows of the mover's parity
    mobility_planes: bool = False  # Othello: four more, each player's legal moves and frontier
    threat_search: int = 0  # Gomoku: N > 0 nodes of threat search, four input planes more

    def __post_init__(self) -> None:
        node_budget(self.threat_search, 0, "threat_search")  # also a config read from a file

    @property
    def input_planes(self) -> int:
        """The planes the network takes: the game's (``planes``) and, with ``threat_search``,
        the threat-search planes that its evaluator appends (:mod:`pyaz.nets.threat_search`)."""
        return self.planes + (THREAT_SEARCH_PLANES if self.threat_search else 0)

    @property
    def stem_planes(self) -> int:
        """The channels the first layer reads: the input planes and the computed planes."""
        threats = THREAT_PLANE_COUNTS[self.threat_depth] if self.threat_line else 0
        mobility = MOBILITY_PLANE_COUNT if self.mobility_planes else 0
        return self.input_planes + threats + int(self.parity_plane) + mobility


# Sizes: "tiny"/"small" run on a CPU; "seed000" is seed 000's Tables I-II (10 blocks, 512
# filters, 256 value units); "seed004" is AlphaGomoku's Tables I-III (a 32-filter stem and 2
# residual blocks of 32 filters, a 32-unit value layer, no dropout); "azg" is
# alpha-zero-general's network of seed 001 (512 channels by default; 64 run well on a CPU).
PRESETS: dict[str, dict[str, Any]] = {
    "tiny": {"blocks": 2, "filters": 32, "value_hidden": 64},
    "small": {"blocks": 4, "filters": 64, "value_hidden": 128},
    "seed000": {"blocks": 10, "filters": 512, "value_hidden": 256},
    "seed004": {"blocks": 2, "filters": 32, "value_hidden": 32, "dropout": 0.0},
    "azg": {"arch": "azg", "filters": 512, "dropout": 0.3},
}

ARCHITECTURES = ("resnet", "azg")
THREAT_MODES = ("on", "deep", "forks", "parity", "mobility", "off")
"""The planes a network may compute: the :class:`ThreatPlanes` of the cells that complete a
line; those and the cells that make a new threat; those, the cells that make a three and the
forks; the cells that complete a line and the :class:`ParityPlane` (Connect Four only); the
:class:`MobilityPlanes` (Othello only); none. The modes each game has (besides off) are its
profile's :attr:`~pyaz.games.profiles.GameProfile.planes`."""
THREAT_DEPTHS = {"on": 1, "deep": 2, "forks": 3, "parity": 1}  # the mode's ThreatPlanes depth
THREAT_PLANE_COUNTS = {1: 2, 2: 4, 3: 8}  # the planes ThreatPlanes adds at each depth
MOBILITY_PLANE_COUNT = 4  # the planes MobilityPlanes adds


def check_game_planes(mode: str, game: str) -> None:
    """ValueError unless ``game`` has the planes of ``mode`` in its profile (or it is off or
    auto, which resolves per game)."""
    if mode not in ("auto", "off", *profile(game).planes):
        games = games_where(lambda other: mode in other.planes)
        raise ValueError(
            f"threat_planes {mode!r} are planes of {' and '.join(games)}, not of {game}"
        )


def net_config_for(
    state: NetworkGameState, preset: str = "tiny", threats: str = "off", **overrides: Any
) -> NetConfig:
    """The config of a network for ``state``'s game: a size preset plus explicit overrides;
    ``threats`` (:data:`THREAT_MODES`) the threat planes over the game's line (Connect Four 4,
    Gomoku its ``line_length``)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown network preset {preset!r}; known: {', '.join(PRESETS)}")
    if threats not in THREAT_MODES:
        raise ValueError(f"threat planes must be one of {', '.join(THREAT_MODES)}, got {threats!r}")
    planes, height, width = state.planes_shape
    config = NetConfig(planes, height, width, state.num_actions, **PRESETS[preset])
    check_game_planes(threats, state.name)
    if threats == "mobility":
        config = replace(config, mobility_planes=True)
    elif threats != "off":
        line = int(getattr(state, "line_length", 4))  # Connect Four has no option: 4
        depth, parity = THREAT_DEPTHS[threats], threats == "parity"
        config = replace(config, threat_line=line, threat_depth=depth, parity_plane=parity)
    config = replace(config, **{k: v for k, v in overrides.items() if v is not None})
    _architecture(config.arch)  # a ValueError for an unknown one
    if config.threat_search and not profile(state.name).threat_analysis:
        raise ValueError(
            f"threat_search ({config.threat_search}) reads Gomoku's threats, not {state.name}'s"
        )
    if config.value_planes != 1 and config.arch != "resnet":
        raise ValueError(
            f"value_planes ({config.value_planes}) is a setting of the resnet network, "
            f"not of {config.arch}"
        )
    return config


class ResidualBlock(nn.Module):
    def __init__(self, filters: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(filters)
        self.conv2 = nn.Conv2d(filters, filters, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(filters)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class _FixedPlanes(nn.Module):
    """A module of computed planes whose buffers are fixed: a state without them (written
    before they were saved) is whole."""

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str, *args: Any) -> None:
        for name, buffer in self._buffers.items():
            state_dict.setdefault(prefix + name, buffer)
        super()._load_from_state_dict(state_dict, prefix, *args)


class ThreatPlanes(_FixedPlanes):
    """Appends two planes to ``x [B, C, H, W]``: the empty cells where the stones of plane 0,
    then of plane 1, would complete a line of ``line`` (in a row, a column or a diagonal). With
    ``depth`` 2, two more: the empty cells where a stone of plane 0, then of plane 1, would make
    a new threat, that is a window of ``line`` cells holding all but one of the player's stones
    and none of the opponent's (Gomoku's fours, Connect Four's threes with the fourth cell open).
    With ``depth`` 3, four more: the cells where a stone of plane 0, then of plane 1, would make
    a window hold all but two of the player's stones and none of the opponent's (Gomoku's
    threes), then the forks of each: the cells where a stone would make such a four or three in
    two or more of the 4 directions at once (Gomoku's four-four, four-three and three-three).

    One fixed convolution counts, for each of the 4 directions and each of the ``line`` places
    a cell can hold in a window of ``line`` cells along it, the player's stones in the window's
    other cells; a cell is a threat when some window has all of them and the cell is empty. The
    same convolution of a plane of ones tells the windows that lie wholly on the board.
    """

    def __init__(self, line: int, depth: int = 1) -> None:
        super().__init__()
        if line < 2:
            raise ValueError(f"threat_line must be at least 2 (or 0: none), got {line}")
        if depth not in THREAT_PLANE_COUNTS:
            raise ValueError(f"threat_depth must be 1, 2 or 3, got {depth}")
        self.line = line
        self.depth = depth
        size = 2 * line - 1
        kernels = torch.zeros(4 * line, 1, size, size)
        for d, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
            for place in range(line):
                for i in range(line):
                    if i != place:
                        row, col = line - 1 + (i - place) * dr, line - 1 + (i - place) * dc
                        kernels[d * line + place, 0, row, col] = 1.0
        self.register_buffer("kernels", kernels)  # saved: TorchScript keeps every buffer

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = x.shape[0]
        own_stones, opponent_stones = x[:, 0:1], x[:, 1:2]
        kernels = self.kernels  # a buffer: nn.Module's typing says Tensor | Module
        images = [own_stones, opponent_stones]
        if self.depth >= 2:  # a plane of ones: its counts tell the windows on the board
            images.append(torch.ones_like(x[:1, 0:1]))
        counts = nn.functional.conv2d(torch.cat(images, 0), kernels, padding=self.line - 1)  # type: ignore[arg-type]
        own, opponent = counts[:batch], counts[batch : 2 * batch]
        empty = 1.0 - own_stones - opponent_stones
        full = float(self.line - 1)
        planes = [x, _any_window(own, full) * empty, _any_window(opponent, full) * empty]
        if self.depth == 1:
            return torch.cat(planes, 1)
        whole = (counts[2 * batch :] - full).abs() < 0.5  # the windows that lie on the board
        sides = ((own, opponent), (opponent, own))
        fours = [_making(mine, theirs, whole, full - 1.0) for mine, theirs in sides]
        planes += [four.any(1, keepdim=True).to(x.dtype) * empty for four in fours]
        if self.depth == 3:
            threes = [_making(mine, theirs, whole, full - 2.0) for mine, theirs in sides]
            planes += [three.any(1, keepdim=True).to(x.dtype) * empty for three in threes]
            height, width = x.shape[2], x.shape[3]
            for four, three in zip(fours, threes, strict=True):
                # per direction, whether some window along it makes a four or a three
                directions = (four | three).reshape(-1, 4, self.line, height, width).any(2)
                forks = directions.to(x.dtype).sum(1, keepdim=True) > 1.5
                planes.append(forks.to(x.dtype) * empty)
        return torch.cat(planes, 1)


class ParityPlane(nn.Module):
    """Appends one plane to Connect Four's planes ``x [B, C, H, W]`` (plane 0 the stones of the
    player to move, plane 1 the opponent's): ones on the rows where a threat of the player to
    move has the parity that wins a zugzwang ending, zeros elsewhere. Counting rows from the
    bottom as 1, these are the odd rows for the player who moved first (as many stones as the
    opponent) and the even rows for the second player (one stone fewer): Allis 1988, "A
    Knowledge-based Approach of Connect-Four" (odd and even threats, claimeven).
    No parameters; the threat planes tell which cells are threats, this plane which rows count.
    """

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        own = x[:, 0:1].sum((2, 3), keepdim=True)
        opponent = x[:, 1:2].sum((2, 3), keepdim=True)
        second = (opponent - own > 0.5).to(x.dtype)  # [B, 1, 1, 1]: the mover moved second
        height = x.shape[2]
        from_bottom = height - torch.arange(height, dtype=x.dtype, device=x.device)  # H..1
        odd = torch.remainder(from_bottom, 2.0).reshape(1, 1, height, 1)  # 1 on odd rows
        rows = odd + second * (1.0 - 2.0 * odd)  # odd rows for the first player, even else
        return torch.cat([x, rows * torch.ones_like(x[:, 0:1])], 1)


class MobilityPlanes(_FixedPlanes):
    """Appends four planes to Othello's planes ``x [B, C, H, W]`` (plane 0 the discs of the
    player to move, plane 1 the opponent's): the legal moves of the player to move, those the
    opponent would have were it to move, and each one's frontier, the empty cells next to the
    other's discs. These are the current and the potential mobility of IAGO's evaluation
    (Rosenbloom 1982, "A World-Championship-Level Othello Program"), the features every Othello
    evaluation since has counted (Buro's Logistello among them). No parameters.

    A move is legal on an empty cell when, in one of the 8 directions, a run of the other's
    discs ends in one of the player's. One fixed grouped convolution shifts a plane by one cell
    in each of the 8 directions; ``runs`` marks, per direction, the other's discs that start
    such a run, grown one disc a step, as many steps as the longest run the board holds.
    """

    def __init__(self) -> None:
        super().__init__()
        shifts = torch.zeros(8, 1, 3, 3)
        steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
        for d, (dr, dc) in enumerate(steps):
            shifts[d, 0, 1 + dr, 1 + dc] = 1.0  # channel d at a cell reads the cell + (dr, dc)
        self.register_buffer("shifts", shifts)

    def _shift(self, planes: torch.Tensor) -> torch.Tensor:
        """Per direction d (channel), each cell's neighbour in direction d (0 off the board)."""
        return nn.functional.conv2d(planes, self.shifts, padding=1, groups=8)  # type: ignore[arg-type]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, height, width = x.shape[0], x.shape[2], x.shape[3]
        # both players at once: (mover, opponent) then (opponent, mover)
        mine = torch.cat([x[:, 0:1], x[:, 1:2]], 0)
        theirs = torch.cat([x[:, 1:2], x[:, 0:1]], 0)
        empty = 1.0 - mine - theirs
        mine_next = self._shift(mine.expand(-1, 8, -1, -1).contiguous())
        runs = theirs * mine_next  # the other's discs with one of mine next along d
        for _ in range(max(height, width) - 3):
            runs = theirs * torch.maximum(mine_next, self._shift(runs))
        legal = (self._shift(runs).sum(1, keepdim=True) > 0.5).to(x.dtype) * empty
        frontier = nn.functional.max_pool2d(theirs, 3, stride=1, padding=1) * empty
        return torch.cat([x, legal[:batch], legal[batch:], frontier[:batch], frontier[batch:]], 1)


def _making(
    mine: torch.Tensor, theirs: torch.Tensor, whole: torch.Tensor, others: float
) -> torch.Tensor:
    """The windows (per direction and place) where a stone of ``mine`` makes a window on the
    board hold ``others`` + 1 of the player's stones and none of the opponent's."""
    return ((mine - others).abs() < 0.5) & (theirs < 0.5) & whole


def _any_window(counts: torch.Tensor, full: float) -> torch.Tensor:
    """1 where some window's other cells all hold the player's stones (``counts`` = full)."""
    return (counts > full - 0.5).any(1, keepdim=True).to(counts.dtype)


def _inputs(config: NetConfig) -> nn.Module:
    computed: list[nn.Module] = []
    if config.threat_line:
        computed.append(ThreatPlanes(config.threat_line, config.threat_depth))
    if config.parity_plane:
        computed.append(ParityPlane())
    if config.mobility_planes:
        computed.append(MobilityPlanes())
    if len(computed) > 1:
        return nn.Sequential(*computed)
    return computed[0] if computed else nn.Identity()


class PolicyValueNet(nn.Module):
    """The base of pyaz's policy-value networks; ``PolicyValueNet(config)`` builds the
    architecture ``config.arch`` names (:class:`ResNet` or :class:`AzgNet`).

    ``forward(planes[B, C, H, W]) -> (policy_logits[B, A], value[B, 1] in [-1, 1])``.
    """

    def __new__(cls, config: NetConfig | None = None) -> PolicyValueNet:
        if cls is PolicyValueNet:
            if config is None:
                raise TypeError("PolicyValueNet(config) needs a NetConfig")
            cls = _architecture(config.arch)
        return super().__new__(cls)

    def __init__(self, config: NetConfig) -> None:
        super().__init__()
        self.config = config

    def forward_with_score(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(policy_logits [B, A], value [B, 1], score [B, 1] in [-1, 1])``; ValueError for a
        network built without ``score_head``."""
        raise ValueError(f"this {self.config.arch} network has no score head (score_head False)")


def _architecture(arch: str) -> type[PolicyValueNet]:
    if arch in ARCHITECTURES:
        return ResNet if arch == "resnet" else AzgNet
    raise ValueError(f"unknown network architecture {arch!r}; known: {', '.join(ARCHITECTURES)}")


class ResNet(PolicyValueNet):
    """The residual tower with policy and value heads (see the module docstring)."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__(config)
        c = config
        self.threats = _inputs(c)
        self.stem = nn.Sequential(*_conv_bn_relu(c.stem_planes, c.filters, 3, 1, bias=False))
        self.tower = nn.Sequential(*[ResidualBlock(c.filters) for _ in range(c.blocks)])
        area = c.height * c.width
        self.policy_head = nn.Sequential(
            *_conv_head(c.filters, 2, c.dropout), nn.Linear(2 * area, c.actions)
        )
        self.value_head = nn.Sequential(
            *_conv_head(c.filters, c.value_planes, c.dropout),
            *_tanh_unit(c.value_planes * area, c.value_hidden),
        )
        if c.score_head:
            self.score_head = nn.Sequential(
                *_conv_head(c.filters, 1, None), *_tanh_unit(area, c.value_hidden)
            )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.tower(self.stem(self.threats(x)))
        return self.policy_head(h), self.value_head(h)

    def forward_with_score(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if not self.config.score_head:
            return super().forward_with_score(x)
        h = self.tower(self.stem(self.threats(x)))
        return self.policy_head(h), self.value_head(h), self.score_head(h)


class AzgNet(PolicyValueNet):
    """alpha-zero-general's network (seed 001; see the module docstring). Needs boards of at
    least 5x5 (the two unpadded convolutions take 4 rows and 4 columns)."""

    def __init__(self, config: NetConfig) -> None:
        super().__init__(config)
        c = config
        if c.height < 5 or c.width < 5:
            raise ValueError(
                f"the azg network needs a board of at least 5x5, got {c.height}x{c.width}"
            )
        self.threats = _inputs(c)
        self.convs = nn.Sequential(
            *_conv_bn_relu(c.stem_planes, c.filters, 3, padding=1),
            *_conv_bn_relu(c.filters, c.filters, 3, padding=1),
            *_conv_bn_relu(c.filters, c.filters, 3, padding=0),
            *_conv_bn_relu(c.filters, c.filters, 3, padding=0),
            nn.Flatten(),
        )
        flat = c.filters * (c.height - 4) * (c.width - 4)
        self.fully_connected = nn.Sequential(
            nn.Linear(flat, 1024),
            nn.BatchNorm1d(1024),
            nn.ReLU(),
            nn.Dropout(c.dropout),
            nn.Linear(1024, 512),
            nn.BatchNorm1d(512),
            nn.ReLU(),
            nn.Dropout(c.dropout),
        )
        self.policy = nn.Linear(512, c.actions)
        self.value = nn.Sequential(nn.Linear(512, 1), nn.Tanh())
        if c.score_head:
            self.score = nn.Sequential(nn.Linear(512, 1), nn.Tanh())

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.fully_connected(self.convs(self.threats(x)))
        return self.policy(h), self.value(h)

    def forward_with_score(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if not self.config.score_head:
            return super().forward_with_score(x)
        h = self.fully_connected(self.convs(self.threats(x)))
        return self.policy(h), self.value(h), self.score(h)


def _conv_bn_relu(
    inputs: int, outputs: int, kernel: int, padding: int, bias: bool = True
) -> list[nn.Module]:
    conv = nn.Conv2d(inputs, outputs, kernel, padding=padding, bias=bias)
    return [conv, nn.BatchNorm2d(outputs), nn.ReLU()]


def _conv_head(filters: int, planes: int, dropout: float | None) -> list[nn.Module]:
    """A resnet head's start: a 1x1 convolution to ``planes`` planes, batch norm, ReLU, flat,
    and the dropout (None: none)."""
    layers = [*_conv_bn_relu(filters, planes, 1, 0, bias=False), nn.Flatten()]
    return layers if dropout is None else [*layers, nn.Dropout(dropout)]


def _tanh_unit(inputs: int, hidden: int) -> list[nn.Module]:
    """A hidden layer of ``hidden`` ReLU units and one tanh output."""
    return [nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, 1), nn.Tanh()]


def to_torchscript(net: PolicyValueNet) -> torch.jit.ScriptModule:
    """A TorchScript copy of ``net`` in eval mode (for the evaluator and for export)."""
    was_training = net.training
    net.eval()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        scripted = torch.jit.script(net)
    net.train(was_training)
    return scripted


def torchscript_bytes(net: PolicyValueNet) -> bytes:
    """The TorchScript archive of ``net`` (what ``torch.jit.load`` reads)."""
    buffer = io.BytesIO()
    torch.jit.save(to_torchscript(net), buffer)
    return buffer.getvalue()


def net_state(net: PolicyValueNet) -> dict[str, Any]:
    """A picklable snapshot: the config and the weights."""
    return {"config": asdict(net.config), "state_dict": net.state_dict()}


NET_LIMITS: dict[str, tuple[int, int]] = {
    "planes": (1, 1024),
    "height": (1, 128),
    "width": (1, 128),
    "actions": (1, 2**20),
    "blocks": (0, 256),
    "filters": (1, 4096),
    "value_hidden": (1, 65536),
    "value_planes": (1, 256),
    "threat_line": (0, 128),
    "threat_depth": (1, 3),
    "threat_search": (0, 10**6),
}
"""The range of each size field of a :class:`NetConfig` read from a file, generous ceilings far
above anything pyaz trains (its games: at most 12 planes, 19x19 boards, 4,184 actions; its
presets: at most 10 blocks, 512 filters, 256 value units, 1 value plane); the parameter count
has its own ceiling (:data:`pyaz.nets.bounds.MAX_PARAMETERS`)."""

_FLAGS = ("score_head", "parity_plane", "mobility_planes")


def net_config_from(fields: Any) -> NetConfig:
    """The :class:`NetConfig` of ``fields`` (the ``"config"`` of a :func:`net_state` read from
    a file), checked before any network is built: the fields of NetConfig only, the size fields
    integers within :data:`NET_LIMITS`, the flags booleans, ``dropout`` in [0, 1] and a known
    ``arch``. TypeError or ValueError naming the field otherwise."""
    what = "the network's config"
    check_sizes(fields, NET_LIMITS, what)
    known = {field.name for field in dataclasses.fields(NetConfig)}
    unknown = [name for name in fields if name not in known]
    if unknown:
        raise TypeError(f"{what} has a field {shortened(repr(unknown[0]), 60)} pyaz does not know")
    for flag in _FLAGS:
        if fields.get(flag, False) not in (True, False):
            raise TypeError(f"{what}: {flag} must be true or false, got {fields[flag]!r:.40}")
    dropout = fields.get("dropout", 0.0)
    if isinstance(dropout, bool) or not isinstance(dropout, int | float) or not 0 <= dropout <= 1:
        raise ValueError(f"{what}: dropout must be a number in [0, 1], got {dropout!r:.40}")
    _architecture(str(fields.get("arch", "resnet"))[:40])
    return NetConfig(**fields)


def net_from_state(state: dict[str, Any]) -> PolicyValueNet:
    """Rebuilds a network saved with :func:`net_state`, checked before it is built: its config
    by :func:`net_config_from`, then its parameter count and every weight's name, shape and
    values (finite) by :func:`pyaz.nets.bounds.checked_module`. A one-line TypeError or
    ValueError otherwise (no file's size reaches memory first)."""
    config = net_config_from(state["config"])
    return checked_module(lambda: PolicyValueNet(config), state["state_dict"], "the network")
