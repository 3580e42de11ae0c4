#!/usr/bin/env python3
"""Turn a pytest-benchmark JSON file into a Markdown table of pyaz figures vs peers.

Usage::

    pytest bench/ --benchmark-only --benchmark-json=bench/results.json
    python bench/report.py bench/results.json

A benchmark becomes a row when its ``extra_info`` holds at least ``measure`` and
``value``.  Recognised keys (all others are ignored):

========================  ==================================================================
``game``                  row label, e.g. "Othello 8x8" (default: the benchmark group)
``measure``               what is measured, e.g. "random games/s"            (required)
``value``                 pyaz's figure                                      (required)
``unit``                  unit of ``value``/``peer_value``/``target_value``, e.g. "games/s"
``engine``                column heading for ``value`` (default "pyaz")
``peer``                  peer's name, e.g. "OpenSpiel 2.0.2 (Python loop)"
``peer_value``            peer's figure in the same unit, measured in the same run
``ratio``                 pyaz/peer (default: computed from value and peer_value)
``round_ratios``          per-round ratios; their range is shown next to the ratio
``target_ratio``          required ratio, e.g. 50 for "at least 50x the peer"
``target_value``          required absolute figure, e.g. 300e6 leaves/s
``lower_is_better``       true for times/latencies: the ratio becomes peer/pyaz and
                          the targets become upper bounds on ``value``
========================  ==================================================================

Only ratios taken within one run are meaningful: absolute figures drift by about
+-30% between runs on the same machine.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DASH = "—"


@dataclass(frozen=True)
class Row:
    group: str
    game: str
    measure: str
    unit: str
    engine: str
    value: float
    peer: str | None
    peer_value: float | None
    ratio: float | None
    ratio_range: tuple[float, float] | None
    target_ratio: float | None
    target_value: float | None
    lower_is_better: bool

    def meets_target(self) -> bool | None:
        """True/False against every target given; None when the row has no target."""
        checks: list[bool] = []
        if self.target_ratio is not None:
            checks.append(self.ratio is not None and self.ratio >= self.target_ratio)
        if self.target_value is not None:
            if self.lower_is_better:
                checks.append(self.value <= self.target_value)
            else:
                checks.append(self.value >= self.target_value)
        return all(checks) if checks else None


def _opt_float(value: Any) -> float | None:
    if value is None:
        return None
    result = float(value)
    return None if math.isnan(result) else result


def row_from_benchmark(bench: dict[str, Any]) -> Row | None:
    """Build a report row from one pytest-benchmark entry, or None if it has no figures."""
    info: dict[str, Any] = bench.get("extra_info") or {}
    if "measure" not in info or info.get("value") is None:
        return None
    group = str(bench.get("group") or "")
    value = float(info["value"])
    peer_value = _opt_float(info.get("peer_value"))
    lower_is_better = bool(info.get("lower_is_better", False))

    ratio = _opt_float(info.get("ratio"))
    if ratio is None and peer_value is not None and value > 0 and peer_value > 0:
        ratio = peer_value / value if lower_is_better else value / peer_value

    ratio_range: tuple[float, float] | None = None
    round_ratios = info.get("round_ratios")
    if isinstance(round_ratios, list) and len(round_ratios) > 1:
        floats = [float(r) for r in round_ratios]
        ratio_range = (min(floats), max(floats))

    peer = info.get("peer")
    return Row(
        group=group,
        game=str(info.get("game") or group or bench.get("name", "?")),
        measure=str(info["measure"]),
        unit=str(info.get("unit") or ""),
        engine=str(info.get("engine") or "pyaz"),
        value=value,
        peer=None if peer is None else str(peer),
        peer_value=peer_value,
        ratio=ratio,
        ratio_range=ratio_range,
        target_ratio=_opt_float(info.get("target_ratio")),
        target_value=_opt_float(info.get("target_value")),
        lower_is_better=lower_is_better,
    )


def load_rows(data: dict[str, Any]) -> tuple[list[Row], list[str]]:
    """Rows in run order, kept together per benchmark group; plus names without figures."""
    rows: list[Row] = []
    skipped: list[str] = []
    for bench in data.get("benchmarks", []):
        row = row_from_benchmark(bench)
        if row is None:
            skipped.append(str(bench.get("fullname") or bench.get("name") or "?"))
        else:
            rows.append(row)
    first_seen: dict[str, int] = {}
    for i, row in enumerate(rows):
        first_seen.setdefault(row.group, i)
    order = sorted(range(len(rows)), key=lambda i: (first_seen[rows[i].group], i))
    return [rows[i] for i in order], skipped


def fmt_quantity(value: float | None, unit: str = "") -> str:
    """3 significant digits with an SI prefix: 1234567 -> '1.23 M games/s'."""
    if value is None:
        return DASH
    for factor, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g} {prefix} {unit}".rstrip()
    return f"{value:.3g} {unit}".rstrip()


def fmt_ratio(ratio: float | None) -> str:
    if ratio is None:
        return DASH
    return f"{ratio:.0f}x" if ratio >= 100 else f"{ratio:.3g}x"


def fmt_target(row: Row) -> str:
    parts: list[str] = []
    if row.target_ratio is not None:
        parts.append(f"≥ {row.target_ratio:g}x")
    if row.target_value is not None:
        sign = "≤" if row.lower_is_better else "≥"
        parts.append(f"{sign} {fmt_quantity(row.target_value, row.unit)}")
    return ", ".join(parts) if parts else DASH


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_table(rows: Sequence[Row]) -> str:
    header = ["game", "measure", "pyaz", "peer (name)", "ratio pyaz/peer", "target", "met"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] * len(header)) + "|"]
    for row in rows:
        engine = fmt_quantity(row.value, row.unit)
        if row.engine != "pyaz":
            engine = f"{engine} ({row.engine})"
        if row.peer is None:
            peer = DASH
        elif row.peer_value is None:
            peer = row.peer
        else:
            peer = f"{fmt_quantity(row.peer_value, row.unit)} ({row.peer})"
        ratio = fmt_ratio(row.ratio)
        if row.ratio is not None and row.ratio_range is not None:
            lo, hi = row.ratio_range
            ratio = f"{ratio} ({lo:.3g} to {hi:.3g})"
        met = row.meets_target()
        met_text = DASH if met is None else ("yes" if met else "**NO**")
        cells = [row.game, row.measure, engine, peer, ratio, fmt_target(row), met_text]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines)


def render_header(data: dict[str, Any], source: Path) -> str:
    machine: dict[str, Any] = data.get("machine_info") or {}
    cpu: dict[str, Any] = machine.get("cpu") or {}
    cpu_name = cpu.get("brand_raw") or machine.get("processor") or machine.get("machine") or "?"
    count = cpu.get("count") or machine.get("cpu_count")
    versions: dict[str, Any] = machine.get("pyaz_bench_versions") or {}
    version_text = ", ".join(f"{k} {v}" for k, v in versions.items() if v)
    lines = [
        f"## pyaz benchmarks ({source.name})",
        "",
        f"- run: {data.get('datetime', '?')}",
        f"- machine: {cpu_name}"
        + (f", {count} cores" if count else "")
        + f", Python {machine.get('python_version', '?')}",
    ]
    if version_text:
        lines.append(f"- versions: {version_text}")
    return "\n".join(lines)


FOOTNOTE = (
    "Figures are medians over the timed rounds; pyaz and its peer are timed in the same run, "
    "interleaved round by round, and the ratio is the median of the per-round ratios "
    "(range in parentheses). Absolute figures drift about ±30% between runs, so compare "
    "ratios within one run, not absolute numbers across runs."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=(
            "Print a Markdown table (pyaz vs peer, ratio, target) "
            "from a pytest-benchmark JSON file."
        ),
        epilog=(
            "Produce the input with: "
            "pytest bench/ --benchmark-only --benchmark-json=bench/results.json"
        ),
    )
    parser.add_argument(
        "json_file", type=Path, help="pytest-benchmark JSON output (--benchmark-json)"
    )
    parser.add_argument(
        "--no-header",
        action="store_true",
        help="print only the table (no run/machine lines, no footnote)",
    )
    parser.add_argument(
        "--fail-on-miss",
        action="store_true",
        help="exit with status 1 when any row misses its target (or no row was found)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    path: Path = args.json_file
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        print(f"report.py: cannot read {path}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        print(f"report.py: {path} is not a pytest-benchmark JSON file", file=sys.stderr)
        return 2

    rows, skipped = load_rows(data)
    if skipped:
        names = ", ".join(skipped)
        print(
            f"report.py: {len(skipped)} benchmark(s) without extra_info figures left out: {names}",
            file=sys.stderr,
        )
    if not args.no_header:
        print(render_header(data, path))
        print()
    if rows:
        print(render_table(rows))
    else:
        print("_No benchmark in this file carries extra_info figures (was pyaz installed?)._")
    if not args.no_header:
        print()
        print(FOOTNOTE)

    missed = [r for r in rows if r.meets_target() is False]
    if args.fail_on_miss and (missed or not rows):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
