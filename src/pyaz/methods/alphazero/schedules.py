"""Schedules over a training run, each a pure function of the iteration (1-based) and the run's
horizon, so that a resumed run follows them exactly (the horizon is kept in the checkpoint).

- The learning rate (``lr_schedule``): ``constant`` (AlphaZero's fixed rate); ``cosine``
  (Loshchilov & Hutter 2017, SGDR without restarts): from lr at the first iteration down to
  lr / 100 at the horizon along half a cosine; ``onecycle`` (Smith 2018, the 1cycle schedule
  that Oracle's "Lessons from AlphaZero", part 6, used on Connect Four): up from lr / 10 to lr
  in a straight line over the first 30% of the horizon, then down to lr / 100 along half a
  cosine. Past the horizon the last value holds.
- The window of retained iterations (``window_growth`` = [start, every]): ``start`` iterations
  at first, one more every ``every`` iterations, at most ``retrain_iterations`` (Oracle's
  "slow window", part 6: start 4, +1 every 2, up to 20).
- Progressive simulations (``simulations_schedule``, MiniZero's progressive simulation: Wu et
  al. 2023, fewer simulations early, when the network knows little, more later): a list of
  simulation counts applied over equal shares of the horizon ([25, 50, 100] over 30
  iterations: 25 in iterations 1-10, 50 in 11-20, 100 from 21 on).

The horizon is the number of iterations the run was started with (``iterations``), and with
``max_minutes`` also the time: a schedule's progress is the larger of the share of the
iterations and the share of the minutes spent before the iteration (``time_share``), so that a
run stopped by its time budget ends its schedules with it (before 2026-11-28 only the
iterations counted: a run of ``--iterations 1000 --max-minutes 30`` that stopped at iteration
300 had barely started its schedules). A resume with more iterations holds the last value after
the first horizon.

>>> [round(lr_factor("onecycle", t, 11), 3) for t in (1, 4, 11)]
[0.1, 1.0, 0.01]
>>> [window_size([4, 2], t, 20) for t in (1, 2, 3, 40)]
[4, 4, 5, 20]
>>> [scheduled_simulations([25, 50, 100], t, 30) for t in (1, 10, 11, 21, 99)]
[25, 25, 50, 100, 100]
>>> round(lr_factor("cosine", 2, 1000, time_share=0.5), 3)  # half the minutes spent
0.505
"""

from __future__ import annotations

import math

__all__ = [
    "LR_SCHEDULES",
    "lr_factor",
    "schedule_progress",
    "scheduled_simulations",
    "window_size",
]

LR_SCHEDULES = ("constant", "cosine", "onecycle")
"""The learning-rate schedules, the first being the default (no schedule)."""

LR_FLOOR = 0.01
"""The end of the decaying schedules, as a share of lr."""
ONECYCLE_START = 0.1
"""Where the one-cycle schedule starts, as a share of lr."""
ONECYCLE_PEAK = 0.3
"""The share of the horizon over which the one-cycle schedule rises to lr."""


def schedule_progress(iteration: int, horizon: int, time_share: float = 0.0) -> float:
    """0 at iteration 1, 1 at iteration ``horizon`` and after; at least ``time_share`` (the
    share of the run's minutes spent), at most 1."""
    if iteration < 1 or horizon < 1:
        raise ValueError(f"iteration and horizon must be >= 1, got {iteration} and {horizon}")
    if not time_share >= 0.0:  # NaN too
        raise ValueError(f"time_share must be >= 0, got {time_share}")
    if horizon == 1:
        return 1.0 if iteration > 1 else min(1.0, time_share)
    return min(1.0, max((iteration - 1) / (horizon - 1), time_share))


def _half_cosine(progress: float, top: float, bottom: float) -> float:
    return bottom + (top - bottom) * 0.5 * (1.0 + math.cos(math.pi * progress))


def lr_factor(schedule: str, iteration: int, horizon: int, time_share: float = 0.0) -> float:
    """The share of the base lr that ``schedule`` gives iteration ``iteration`` of a run of
    ``horizon`` iterations, ``time_share`` of whose minutes are spent (see the module
    docstring); ValueError naming an unknown schedule."""
    if schedule not in LR_SCHEDULES:
        raise ValueError(f"lr_schedule must be one of {', '.join(LR_SCHEDULES)}, got {schedule!r}")
    progress = schedule_progress(iteration, horizon, time_share)
    if schedule == "cosine":
        return _half_cosine(progress, 1.0, LR_FLOOR)
    if schedule == "onecycle":
        if progress < ONECYCLE_PEAK:
            return ONECYCLE_START + (1.0 - ONECYCLE_START) * progress / ONECYCLE_PEAK
        return _half_cosine((progress - ONECYCLE_PEAK) / (1.0 - ONECYCLE_PEAK), 1.0, LR_FLOOR)
    return 1.0


def check_window_growth(growth: list[int], retrain_iterations: int) -> None:
    """ValueError naming window_growth unless it is empty or [start >= 1, every >= 1] with
    retrain_iterations > 0 (the window it grows)."""
    if not growth:
        return
    if len(growth) != 2 or any(isinstance(n, bool) or not isinstance(n, int) for n in growth):
        raise ValueError(f"window_growth must be two integers START,EVERY, got {growth}")
    if min(growth) < 1:
        raise ValueError(f"window_growth START,EVERY must both be >= 1, got {growth}")
    if retrain_iterations < 1:
        raise ValueError(
            "window_growth grows the window of retrain_iterations, which is 0 (the replacement "
            "rule): give retrain_iterations >= 1"
        )


def window_size(growth: list[int], iteration: int, most: int) -> int:
    """The iterations whose games iteration ``iteration`` keeps: ``most`` without ``growth``,
    else start + (iteration - 1) // every, at most ``most``."""
    if not growth:
        return most
    start, every = growth
    return min(most, start + (iteration - 1) // every)


def scheduled_simulations(
    schedule: list[int], iteration: int, horizon: int, time_share: float = 0.0
) -> int:
    """The self-play simulations of iteration ``iteration``: entry k of ``schedule`` for the
    iterations of the k-th of len(schedule) equal shares of ``horizon`` (the last one past it),
    or of the run's minutes when ``time_share`` of them is further on. ValueError for an empty
    schedule."""
    if not schedule:
        raise ValueError("simulations_schedule is empty")
    schedule_progress(iteration, horizon, time_share)  # the checks
    stage = max((iteration - 1) * len(schedule) // horizon, int(time_share * len(schedule)))
    return schedule[min(stage, len(schedule) - 1)]
