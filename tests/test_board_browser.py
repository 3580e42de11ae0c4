"""``pyaz-board`` end to end in headless Chromium (Selenium): every board game played to its end,
a person's clicks answered by an engine whose search shows live, curling, and a run opened in
the run browser. The screenshots go to docs/img/board/ (the docs show them).

Skipped when Debian's chromium or chromedriver is missing, except in CI (``CI`` set), where
that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pyaz.cli.board.app import create_app

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "img" / "board"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

if CHROMIUM is None or DRIVER is None:
    reason = (
        "the browser test needs chromium and chromedriver "
        "(Debian: apt-get install chromium chromium-driver)"
    )
    if os.environ.get("CI"):
        pytest.fail(reason + "; CI must run it", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def run_process(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[subprocess.Popen[bytes], Path]]:
    """A tiny real pyaz-selfplay run, started first so that it runs while the games are played."""
    out = tmp_path_factory.mktemp("runs") / "c4"
    command = [sys.executable, "-m", "pyaz.cli.selfplay", "--game", "connect_four"]
    command += ["--width", "5", "--height", "4", "--iterations", "2", "--episodes", "4"]
    command += ["--simulations", "16", "--epochs", "1", "--arena-games", "2", "--blocks", "1"]
    command += ["--filters", "8", "--eval-every", "1", "--eval-games", "2", "--elo-games", "2"]
    command += ["--elo-every", "1", "--quiet", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    yield process, out
    if process.poll() is None:
        process.kill()
    process.wait()


@contextlib.contextmanager
def _serving(run_dir: str | None = None, models: list[str] | None = None) -> Iterator[str]:
    """The app (opened on ``run_dir``, networks from ``models`` playable) on 127.0.0.1 with an
    ephemeral port, in a thread; its address as pyaz-board prints it (with the token)."""
    from werkzeug.serving import make_server

    from pyaz.cli.board import page_address

    app = create_app(run_dir, models=models or [])
    http = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield page_address("127.0.0.1", http.server_port, app.config["PYAZ_TOKEN"])
    finally:
        http.shutdown()
        thread.join(timeout=10)
        app.extensions["pyaz_board"].close()


@pytest.fixture(scope="module")
def server(run_process: tuple[subprocess.Popen[bytes], Path]) -> Iterator[str]:
    """The app on 127.0.0.1 with an ephemeral port, in a thread, the run's folder among those
    it plays networks from; stopped afterwards."""
    with _serving(models=[str(run_process[1].parent)]) as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1200,900",
    ):
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=str(DRIVER))
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def _until(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _fill(driver: Any, element_id: str, text: str) -> None:
    field = driver.find_element(By.ID, element_id)
    field.clear()
    field.send_keys(text)


def _text(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def _shot(driver: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def _new_game(driver: Any, game: str, size: str, first: str, second: str, delay: str = "0") -> None:
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    _fill(driver, "size", size)
    _fill(driver, "p1", first)
    _fill(driver, "p2", second)
    _fill(driver, "delay", delay)
    driver.find_element(By.ID, "new").click()


def _click_cell(driver: Any, row: int, col: int, rows: int, cols: int) -> None:
    """Clicks the centre of a board cell (the page's geometry: a 24 px margin, square cells,
    the canvas cut to the board)."""
    canvas = driver.find_element(By.ID, "board")
    width, height = (int(canvas.get_attribute(name)) for name in ("width", "height"))
    cell = (520 - 48) // max(rows, cols)
    x, y = 24 + (col + 0.5) * cell, 24 + (row + 0.5) * cell
    actions = webdriver.ActionChains(driver)
    actions.move_to_element_with_offset(canvas, int(x - width / 2), int(y - height / 2))
    actions.click().perform()


GAMES = [  # (game, size, first, second)
    ("othello", "6", "uct:20", "random"),
    ("connect_four", "", "random", "uct:20"),
    ("gomoku", "9", "uct:20", "random"),
    ("go", "5", "random", "uct:20"),
    ("racingkings", "", "uct:20", "random"),
]


def test_the_board_in_a_browser(
    server: str, browser: Any, run_process: tuple[subprocess.Popen[bytes], Path]
) -> None:
    began = time.monotonic()
    browser.get(server)
    assert browser.title == "pyaz board"
    _until(lambda: "token" not in browser.current_url, 5, "the token out of the address bar")
    # a board from the first moment: the form's game (a person against uct:400) has started,
    # the person's legal moves marked
    board = browser.find_element(By.ID, "board")
    _until(lambda: board.get_attribute("data-game") == "othello", 10, "the opening board")
    assert _text(browser, "status") == "Black (X) (human) to move"
    _shot(browser, "opening")

    # every board game watched to its end
    for game, size, first, second in GAMES:
        _new_game(browser, game, size, first, second)
        board = browser.find_element(By.ID, "board")
        _until(
            lambda board=board, game=game: board.get_attribute("data-game") == game,
            10,
            f"the {game} board",
        )
        result = _until(lambda: _text(browser, "result"), 30, f"the end of {game}")
        assert f"({first})" in result or f"({second})" in result or result.startswith("Draw")
        assert not browser.find_element(By.ID, "error").is_displayed()
        _shot(browser, game if game != "racingkings" else "racingkings_end")

    # the network that ships with pyaz plays a person: a legal move clicked, its reply
    _new_game(browser, "othello", "6", "human", "model:builtin:othello6")
    view = _until(
        lambda: browser.execute_script("return game && game.legal.length ? game : null"),
        10,
        "the person's turn against the shipped network",
    )
    row, col = view["legal"][0]["cell"]
    _click_cell(browser, row, col, 6, 6)
    _until(lambda: len(browser.execute_script("return game.history")) == 2, 20, "its reply")
    assert not browser.find_element(By.ID, "error").is_displayed()
    _shot(browser, "othello_shipped_network")

    # a game written in Python, drawn from its board array
    _new_game(browser, "tictactoe", "", "uct:20", "random")
    result = _until(lambda: _text(browser, "result"), 30, "the end of tic-tac-toe")
    assert "(uct:20)" in result or "(random)" in result or result.startswith("Draw")
    _shot(browser, "tictactoe")

    # a bad spec: the command line's message in the page
    _new_game(browser, "connect_four", "", "human", "uct:x")
    error = _until(lambda: _text(browser, "error"), 5, "the error")
    assert error == "'uct:x': SIMULATIONS must be an integer, got 'x'"
    _shot(browser, "error")

    # a person clicks a game of Connect Four to its end; a full column is refused in the page
    _new_game(browser, "connect_four", "", "human", "random")
    for _ in range(30):
        view = _until(
            lambda: (
                browser.execute_script("return game && game.legal.length ? game : null")
                or browser.execute_script("return game && game.over ? game : null")
            ),
            10,
            "the person's turn",
        )
        if view["over"]:
            break
        column = int(view["legal"][0]["move"]) - 1
        plies = len(view["history"])
        _click_cell(browser, 0, column, 6, 7)
        _until(
            lambda plies=plies: browser.execute_script("return game.history.length") > plies,
            10,
            "the move",
        )
    result = _until(lambda: _text(browser, "result"), 10, "the end of the game")
    assert "(human)" in result or "(random)" in result or result.startswith("Draw")
    history = browser.execute_script("return game.history")
    assert len(history) >= 7 and history[0] == "1"
    _shot(browser, "connect_four_human")

    # Racing Kings: a piece picked up and put down
    _new_game(browser, "racingkings", "", "human", "random")
    _until(lambda: "to move" in _text(browser, "status"), 5, "the board")
    _click_cell(browser, 7, 4, 8, 8)  # the knight on e1
    _click_cell(browser, 6, 2, 8, 8)  # to c2
    _until(lambda: _text(browser, "history").startswith("1. e1c2 "), 10, "the knight's move")
    _click_cell(browser, 3, 3, 8, 8)  # an empty square: nothing happens
    assert not browser.find_element(By.ID, "error").is_displayed()
    _until(lambda: len(browser.execute_script("return game.history")) == 2, 10, "the reply")
    _shot(browser, "racingkings")

    # a person clicks, the engine thinks and its search shows while it runs
    _new_game(browser, "go", "9", "human", "uct:100000")
    _until(lambda: "to move" in _text(browser, "status"), 5, "the board")
    assert not browser.find_element(By.ID, "error").is_displayed()
    _click_cell(browser, 4, 4, 9, 9)  # E5
    seen = set()

    def done() -> bool:
        info = _text(browser, "analysis-info")
        if "of 100000 simulations" in info:
            seen.add(info.split(" of 100000")[0])
        return "(done)" in info

    _until(done, 30, "the engine's search")
    assert len(seen) >= 2, f"the analysis did not update while it ran: {seen}"
    assert _text(browser, "history").startswith("1. E5 ")
    rows = browser.find_elements(By.CSS_SELECTOR, "#analysis-table tbody tr")
    assert len(rows) == 12 and "principal variation: " in _text(browser, "analysis-info")
    # the Analyse button: a search of the position on the board, its heat map drawn over it
    _fill(browser, "analysis-spec", "uct:3000")
    browser.find_element(By.ID, "analyse").click()
    info = _until(
        lambda: (
            "uct:3000 on this position: 3000 of 3000 simulations (done)"
            in _text(browser, "analysis-info")
            and _text(browser, "analysis-info")
        ),
        20,
        "the analysis of the position",
    )
    assert "value for Black (X): " in info
    _shot(browser, "analysis")

    # curling: two rule-based players, one end
    browser.find_element(By.ID, "tab-curling").click()
    _fill(browser, "curl-p1", "rule")
    _fill(browser, "curl-p2", "rule")
    _fill(browser, "curl-ends", "1")
    browser.find_element(By.ID, "curl-new").click()
    _until(lambda: "stone 12 of 16" in _text(browser, "curl-status"), 20, "the 12th stone")
    _shot(browser, "curling")
    status = _until(
        lambda: "wins" in _text(browser, "curl-status") or "Draw" in _text(browser, "curl-status"),
        30,
        "the end of the curling game",
    )
    assert status
    # a person throws a draw to the point clicked (the tee), the rule-based player answers
    _fill(browser, "curl-p1", "human")
    browser.find_element(By.ID, "curl-new").click()
    _until(lambda: "click where" in _text(browser, "curl-status"), 10, "the person's throw")
    sheet = browser.find_element(By.ID, "sheet")
    tee = browser.execute_script(
        "const v = curlingGame.sheet, c = document.getElementById('sheet');"
        "const top = v.back + 0.6, scale = Math.min(c.width / (2 * v.half_width),"
        " c.height / (top - v.hog + 0.4)); return (top - v.tee) * scale;"
    )
    actions = webdriver.ActionChains(browser)
    actions.move_to_element_with_offset(sheet, 0, int(tee - 560 / 2)).click().perform()
    _until(lambda: "stone 3 of 16" in _text(browser, "curl-status"), 10, "the reply")
    assert browser.execute_script("return [curlingGame.end, curlingGame.shot]") == [0, 2]

    # the run browser
    process, run_dir = run_process
    assert process.wait(timeout=120) == 0, process.stderr.read() if process.stderr else ""
    browser.find_element(By.ID, "tab-run").click()
    _fill(browser, "run-dir", str(run_dir))
    browser.find_element(By.ID, "open-run").click()
    _until(
        lambda: len(browser.find_elements(By.CSS_SELECTOR, "#curves figure")) == 4, 10, "the curves"
    )
    captions = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#curves figcaption")]
    assert [c.split(":")[0] for c in captions] == ["losses", "win ratio", "Elo", "stage times (s)"]
    networks = Select(browser.find_element(By.ID, "networks"))
    names = [option.text for option in networks.options]
    assert names == ["nets/iter-00001.pt", "nets/iter-00002.pt", "checkpoint.pt"]
    assert networks.first_selected_option.text == "checkpoint.pt"  # the run's best first
    _until(lambda: "ply" in _text(browser, "replay-ply"), 10, "a replay")
    assert len(Select(browser.find_element(By.ID, "replays")).options) >= 2
    _shot(browser, "run")
    browser.execute_script("document.getElementById('replay-board').scrollIntoView()")
    _shot(browser, "replay")
    networks.select_by_visible_text("nets/iter-00002.pt")
    browser.find_element(By.ID, "play-network").click()
    p2 = browser.find_element(By.ID, "p2").get_attribute("value")
    assert p2.startswith("model:") and p2.endswith("iter-00002.pt"), p2
    assert browser.find_element(By.ID, "panel-play").is_displayed()
    # the game against the network starts at once, on the run's board
    board = browser.find_element(By.ID, "board")
    _until(lambda: board.get_attribute("data-game") == "connect_four", 10, "the run's board")
    assert "(human) to move" in _text(browser, "status")
    assert board.get_attribute("width") == str(5 * 94 + 48)  # the run's 5 columns

    # the page opened on a run (pyaz-board --run DIR) shows the run's browser, the run's game
    with _serving(str(run_dir)) as address:
        browser.get(address)
        _until(lambda: browser.find_element(By.ID, "panel-run").is_displayed(), 10, "the run")
        _until(
            lambda: len(Select(browser.find_element(By.ID, "networks")).options) == 3, 10, "nets"
        )
        assert browser.find_element(By.ID, "game").get_attribute("value") == "connect_four"
    assert time.monotonic() - began < 90


def _click_board(driver: Any, row: int, col: int) -> None:
    """Clicks the centre of a cell of the game shown, where the page's own geometry puts it
    (a hex board's rows are shifted)."""
    canvas = driver.find_element(By.ID, "board")
    x, y, width, height = driver.execute_script(
        "const c = document.getElementById('board'), g = geometry(c, game);"
        f"return [g.left({row}, {col}) + g.cell / 2, g.top({row}) + g.cell / 2, c.width, c.height];"
    )
    actions = webdriver.ActionChains(driver)
    actions.move_to_element_with_offset(canvas, int(x - width / 2), int(y - height / 2))
    actions.click().perform()


def _persons_turn(driver: Any) -> dict[str, Any]:
    view: dict[str, Any] = _until(
        lambda: driver.execute_script(
            "return game && (game.over || (game.legal.length && !game.thinking)) ? game : null"
        ),
        20,
        "the person's turn",
    )
    return view


def test_openspiel_games_in_a_browser(server: str, browser: Any, tmp_path: Path) -> None:
    """OpenSpiel's breakthrough 5x5 played by clicks (a pawn picked up, then put down) against a
    fast search, and a stone put on OpenSpiel's hex; the screenshots go to ``tmp_path``, the
    breakthrough one to the docs as well."""
    pytest.importorskip("pyspiel")
    browser.get(server)
    board = browser.find_element(By.ID, "board")
    _until(lambda: board.get_attribute("data-game") == "othello", 10, "the opening board")
    game = "openspiel:breakthrough(rows=5,columns=5)"
    _new_game(browser, game, "", "human", "uct:20")
    _until(lambda: board.get_attribute("data-game") == game, 10, "the breakthrough board")
    assert _text(browser, "status") == "Black (b) (human) to move"
    for turn in range(4):
        view = _persons_turn(browser)
        if view["over"]:
            break
        plies = len(view["history"])
        move = view["legal"][(7 * turn) % len(view["legal"])]
        _click_board(browser, *move["from"])
        assert browser.execute_script("return selected") == move["from"]
        _click_board(browser, *move["cell"])
        _until(
            lambda plies=plies: (
                len(browser.execute_script("return game.history")) >= plies + 2
                or browser.execute_script("return game.over")
            ),
            20,
            "the move and the reply",
        )
        assert browser.execute_script("return game.history")[plies] == move["move"]
        assert not browser.find_element(By.ID, "error").is_displayed()
    history = browser.execute_script("return game.history")
    assert len(history) >= 7 and _text(browser, "history").startswith(f"1. {history[0]} ")
    browser.save_screenshot(str(tmp_path / "openspiel_breakthrough.png"))
    _shot(browser, "openspiel_breakthrough")
    # a cell that holds no piece that can move: the page says how to move, and sends nothing
    view = _persons_turn(browser)
    if not view["over"]:
        starts = {tuple(m["from"]) for m in view["legal"]}
        row, col = next((r, c) for r in range(5) for c in range(5) if (r, c) not in starts)
        _click_board(browser, row, col)
        error = _until(lambda: _text(browser, "error"), 5, "the message")
        assert error == "pick up a piece that can move, then click where it goes"
        assert browser.execute_script("return game.history") == history

    # hex: the cell clicked on the rhombus is the move (d3: column d, row 3)
    game = "openspiel:hex(board_size=5)"
    _new_game(browser, game, "", "human", "uct:20")
    _until(lambda: board.get_attribute("data-game") == game, 10, "the hex board")
    _persons_turn(browser)
    _click_board(browser, 2, 3)
    _until(lambda: len(browser.execute_script("return game.history")) == 2, 20, "the reply")
    assert browser.execute_script("return game.history")[0] == "d3"
    assert browser.execute_script("return game.board")[2][3] == 1
    browser.save_screenshot(str(tmp_path / "openspiel_hex.png"))


def test_the_shipped_networks_are_offered_as_the_second_player(browser: Any) -> None:
    """The Second player field holds the network that ships for the form's game and board
    (uct:400 where none ships) for as long as the page filled it; what the person types stays."""
    from pyaz.cli.board.app import shipped_networks

    specs = {net["name"]: net["spec"] for net in shipped_networks()}
    figures = {net["spec"]: net["figure"] for net in shipped_networks()}

    def second() -> str:
        return str(browser.find_element(By.ID, "p2").get_attribute("value"))

    def offered(spec: str, what: str) -> None:
        _until(lambda: second() == spec, 5, what)
        offer = _text(browser, "offer-info")
        if spec in figures:
            assert offer.startswith(spec) and offer.endswith(figures[spec]), offer
        else:
            assert offer == "" and not browser.find_element(By.ID, "offer-info").is_displayed()

    with _serving() as address:
        browser.get(address)
        game = Select(browser.find_element(By.ID, "game"))
        # Othello at its default size (8x8): the 8x8 network, and the game started against it
        board = browser.find_element(By.ID, "board")
        _until(lambda: board.get_attribute("data-game") == "othello", 10, "the opening board")
        offered(specs["othello8"], "the othello8 network offered")
        assert browser.execute_script("return game.players") == ["human", specs["othello8"]]
        assert not browser.find_element(By.ID, "error").is_displayed()
        game.select_by_value("connect_four")
        offered(specs["connect_four7x6"], "the connect_four7x6 network offered")
        game.select_by_value("othello")
        offered(specs["othello8"], "the othello8 network offered again")
        _fill(browser, "size", "7")  # no network ships for 7x7
        offered("uct:400", "uct:400 back")
        _fill(browser, "size", "6")
        offered(specs["othello6"], "the othello6 network offered")
        _fill(browser, "size", "")  # the default size again
        offered(specs["othello8"], "the othello8 network offered at the default size")
        game.select_by_value("gomoku")  # 15x15 by default: none ships; 9x9's plays 1,200 a move
        offered("uct:400", "uct:400 for Gomoku 15x15")
        _fill(browser, "size", "9")
        offered(specs["gomoku9"], "the gomoku9 network offered")
        assert specs["gomoku9"].endswith(":1200")
        _fill(browser, "size", "")
        game.select_by_value("othello")
        offered(specs["othello8"], "the othello8 network offered once more")
        # what the person types is theirs: no game or size changes it
        _fill(browser, "p2", "uct:50")
        for value in ("connect_four", "othello"):
            game.select_by_value(value)
            _until(lambda: _text(browser, "offer-info") != "", 5, "the offer named")
            assert second() == "uct:50"
        _fill(browser, "size", "7")
        _until(lambda: _text(browser, "offer-info") == "", 5, "no offer named")
        assert second() == "uct:50"


def test_a_size_stays_with_its_game_and_the_offer_follows_a_swap(browser: Any) -> None:
    """A size typed for one game is not sent with the next (each starts at its default size);
    after "Swap sides" the shipped network is in the First player field and still follows the
    game and board there."""
    from pyaz.cli.board.app import shipped_networks

    specs = {net["name"]: net["spec"] for net in shipped_networks()}

    def field(element_id: str) -> str:
        return str(browser.find_element(By.ID, element_id).get_attribute("value"))

    with _serving() as address:
        browser.get(address)
        game = Select(browser.find_element(By.ID, "game"))
        board = browser.find_element(By.ID, "board")
        _until(lambda: board.get_attribute("data-game") == "othello", 10, "the opening board")
        _fill(browser, "size", "6")
        _until(lambda: field("p2") == specs["othello6"], 5, "the othello6 network offered")
        game.select_by_value("connect_four")
        _until(lambda: field("p2") == specs["connect_four7x6"], 5, "the 7x6 network offered")
        assert field("size") == ""
        browser.find_element(By.ID, "swap").click()
        assert (field("p1"), field("p2")) == (specs["connect_four7x6"], "human")
        game.select_by_value("othello")
        _until(lambda: field("p1") == specs["othello8"], 5, "the othello8 network, first")
        assert field("p2") == "human"
        assert _text(browser, "offer-info").startswith(specs["othello8"])
        browser.find_element(By.ID, "new").click()
        _until(
            lambda: (
                browser.execute_script("return game && game.players")
                == [specs["othello8"], "human"]
            ),
            20,
            "a game with the network first",
        )
        assert not browser.find_element(By.ID, "error").is_displayed()
        # what the person types stays, even where it is the text of the offer
        _fill(browser, "p2", specs["othello8"])
        game.select_by_value("connect_four")
        _until(lambda: field("p1") == specs["connect_four7x6"], 5, "the offer, first, follows")
        assert field("p2") == specs["othello8"]
