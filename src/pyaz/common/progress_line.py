"""The line that stays on a training run's screen (issue 77): the time the run has taken, the
steps done, the budget that ends the run and an ETA, such as

``alphazero | 4:10 elapsed | 7 iterations done | budget 30 min | ETA 25:50``

The budget is the one that ends the run first: the time budget (``--max-minutes``; its ETA is
the time it has left) or the steps (their ETA is the steps left times the seconds a step has
taken in this process, so that a resumed run's rate counts only the steps it played). Before
this process has finished a step, a step budget has no ETA (``ETA ?``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RunClock", "clock_text", "progress_line"]


@dataclass(frozen=True)
class RunClock:
    """Where a run stands, for :func:`progress_line`."""

    name: str  # the method: "alphazero"
    step_name: str  # what a step is called: "iteration"
    step: int  # the steps done
    first_step: int  # the steps done when this process opened the run
    seconds_here: float  # this process's seconds since its first step began
    total_steps: int | None  # the steps that end the run (None: not known)
    run_seconds: float | None = None  # the run's seconds, across resumes (None: not kept)
    budget_seconds: float | None = None  # the time budget that ends the run (None: none)


def clock_text(seconds: float) -> str:
    """``seconds`` as M:SS, or H:MM:SS from an hour on (negative ones as 0:00).

    >>> clock_text(70), clock_text(3725.2)
    ('1:10', '1:02:05')
    """
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def progress_line(clock: RunClock) -> str:
    """The line of ``clock`` (see the module docstring): the method, the elapsed time (the
    run's where it is kept, else this process's), the steps done (of the total where the steps
    end the run), the budget and the ETA.

    >>> progress_line(RunClock("alphazero", "iteration", 12, 2, 100.0, 40, 300.0))
    'alphazero | 5:00 elapsed | 12/40 iterations done | budget 40 iterations | ETA 4:40'
    >>> progress_line(RunClock("alphazero", "iteration", 1, 0, 10.0, 100000, 10.0, 1800.0))
    'alphazero | 0:10 elapsed | 1 iteration done | budget 30 min | ETA 29:50'
    """
    elapsed = clock.seconds_here if clock.run_seconds is None else clock.run_seconds
    played = clock.step - clock.first_step
    steps_eta = None
    if clock.total_steps and played > 0:
        steps_eta = (clock.total_steps - clock.step) * clock.seconds_here / played
    time_eta = None
    if clock.budget_seconds is not None:
        time_eta = max(0.0, clock.budget_seconds - elapsed)
    parts = [clock.name, f"{clock_text(elapsed)} elapsed"]
    if time_eta is not None and (steps_eta is None or time_eta <= steps_eta):
        assert clock.budget_seconds is not None
        minutes = f"{clock.budget_seconds / 60:g}"
        done = f"{_count(clock.step, clock.step_name)} done"
        parts += [done, f"budget {minutes} min", f"ETA {clock_text(time_eta)}"]
    elif clock.total_steps:
        eta = "?" if steps_eta is None else clock_text(steps_eta)
        parts += [
            f"{clock.step}/{_count(clock.total_steps, clock.step_name)} done",
            f"budget {_count(clock.total_steps, clock.step_name)}",
            f"ETA {eta}",
        ]
    else:
        parts.append(f"{_count(clock.step, clock.step_name)} done")
    return " | ".join(parts)


def _count(number: int, noun: str) -> str:
    """``number`` ``noun``, plural but for one: "1 iteration", "7 iterations"."""
    return f"{number} {noun}" + ("" if number == 1 else "s")
