"""The GTP client: answers, errors, timeouts, engines that die, and shutdown.

A tiny fake engine (a Python script) plays the misbehaving parts; GNU Go the real one (CI
installs it, so the GNU Go test fails rather than skips without it).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from pyaz.engines.gtp import (
    GtpCommandError,
    GtpEngine,
    GtpEngineNotFoundError,
    GtpError,
    GtpTimeoutError,
    gnugo,
)

FAKE_ENGINE = r"""
import sys, time
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    ident = words[0] if words[0].isdigit() else ""
    if ident:
        words = words[1:]
    command = words[0]
    if command == "quit":
        print(f"={ident}\n", flush=True)
        break
    if command == "name":
        print(f"={ident} fake\n", flush=True)
    elif command == "lines":
        print(f"={ident} first\nsecond\n", flush=True)
    elif command == "sleep":
        time.sleep(float(words[1]))
        print(f"={ident}\n", flush=True)
    elif command == "die":
        print("dying", file=sys.stderr, flush=True)
        sys.exit(3)
    else:
        print(f"?{ident} unknown command\n", flush=True)
"""


@pytest.fixture
def fake(tmp_path: Path) -> list[str]:
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE_ENGINE)
    return [sys.executable, str(script)]


def test_answers_and_multiline_answers(fake: list[str]) -> None:
    with GtpEngine(fake, timeout=10) as engine:
        assert engine.name() == "fake"
        assert engine.send("lines") == "first\nsecond"
        assert engine.send("  name  ") == "fake"


def test_error_answer_raises_and_the_engine_stays_usable(fake: list[str]) -> None:
    with GtpEngine(fake, timeout=10) as engine:
        with pytest.raises(GtpCommandError, match="'frobnicate' failed: unknown command") as info:
            engine.send("frobnicate")
        assert info.value.message == "unknown command"
        assert engine.name() == "fake"


def test_bad_commands_are_refused_before_sending(fake: list[str]) -> None:
    with GtpEngine(fake, timeout=10) as engine, pytest.raises(ValueError, match="one non-empty"):
        engine.send("name\nquit")


def test_timeout_kills_the_engine(fake: list[str]) -> None:
    engine = GtpEngine(fake, timeout=10)
    began = time.perf_counter()
    with pytest.raises(GtpTimeoutError, match=r"no answer to 'sleep 30' within 0\.3 s"):
        engine.send("sleep 30", timeout=0.3)
    assert time.perf_counter() - began < 5
    engine.close()
    assert not engine.alive


def test_engine_death_is_reported_with_its_stderr(fake: list[str]) -> None:
    with GtpEngine(fake, timeout=10) as engine:
        with pytest.raises(GtpError, match=r"exited while answering 'die'.*dying"):
            engine.send("die")
        with pytest.raises(GtpError, match="exited"):
            engine.send("name")


def test_context_manager_shuts_down_on_errors(fake: list[str]) -> None:
    with pytest.raises(RuntimeError, match="boom"), GtpEngine(fake, timeout=10) as engine:
        raise RuntimeError("boom")
    assert not engine.alive
    assert engine.close() == 0  # closing twice is harmless


def test_missing_engine_is_a_readable_error(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-engine")
    with pytest.raises(GtpEngineNotFoundError, match="no-such-engine not found: install it"):
        GtpEngine([missing], install_hint="install it")


def test_missing_gnugo_names_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr("os.access", lambda *_args: False)
    with pytest.raises(GtpEngineNotFoundError, match="gnugo not found: apt-get install gnugo"):
        gnugo()


def test_gnugo_session() -> None:
    with gnugo(level=1, boardsize=9, komi=7.5) as engine:
        assert engine.name() == "GNU Go"
        assert engine.send("protocol_version") == "2"
        engine.play("black", "E5")
        assert engine.list_stones("black") == ["E5"]
        reply = engine.genmove("white")
        assert reply == "pass" or len(reply) in (2, 3)
        with pytest.raises(GtpCommandError, match="illegal move"):
            engine.play("white", "E5")
    assert not engine.alive
