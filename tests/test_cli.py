"""The ``reverie`` command line: ``score`` and ``simulate``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from reverie.cli import app

runner = CliRunner()

EXAMPLE = {
    "variant": "dixit",
    "storyteller": "A",
    "table": {"1": "C", "2": "A", "3": "B"},
    "votes": {"B": 2, "C": 3},
    "scores": {"A": 4, "B": 0, "C": 7},
}


def score(payload: object) -> tuple[int, str, str]:
    data = payload if isinstance(payload, str) else json.dumps(payload)
    result = runner.invoke(app, ["score"], input=data)
    return result.exit_code, result.stdout, result.stderr


def test_score_the_issue_example() -> None:
    code, out, _ = score(EXAMPLE)
    assert code == 0
    assert json.loads(out) == {"A": 3, "B": 4, "C": 0}


def test_score_imaginarium_moves_back_but_not_past_the_start() -> None:
    r = {**EXAMPLE, "variant": "imaginarium", "votes": {"B": 2, "C": 2}}
    assert json.loads(score({**r, "scores": {"A": 4}})[1]) == {"A": -3, "B": 0, "C": 0}
    assert json.loads(score({**r, "scores": {"A": 1}})[1]) == {"A": -1, "B": 0, "C": 0}
    assert json.loads(score({**r, "scores": {}})[1]) == {"A": 0, "B": 0, "C": 0}


def test_score_harmony_example_from_the_seed() -> None:
    r = {
        "variant": "imaginarium-harmony",
        "storyteller": "S",
        "table": {"1": "Yellow", "2": "S", "3": "Blue", "4": "Green", "5": "Red"},
        "votes": {"Yellow": 2, "Blue": 2, "Green": 1, "Red": 3},
    }
    assert json.loads(score(r)[1]) == {"S": 5, "Yellow": 4, "Blue": 4, "Green": 0, "Red": 0}


def test_score_gallery_uses_the_target() -> None:
    r = {
        "variant": "pictoric-gallery",
        "storyteller": "S",
        "table": {str(i): "S" for i in range(1, 7)},
        "target": 4,
        "votes": {"A": 4, "B": 1, "C": 2},
    }
    assert json.loads(score(r)[1]) == {"A": 3, "B": 0, "C": 0, "S": 5}


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "malformed JSON"),
        ("", "no input"),
        ({**EXAMPLE, "variant": "uno"}, "Unknown variant 'uno'"),
        ({**EXAMPLE, "votes": {"B": 3, "C": 3}}, "B voted for their own card"),
        ({**EXAMPLE, "votes": {"A": 1, "B": 2}}, "A is the storyteller and does not vote"),
        ({**EXAMPLE, "votes": {"B": 7}}, "position 7, which is not on the table"),
        ({**EXAMPLE, "table": {"1": "C", "3": "A"}}, "without gaps"),
        ({**EXAMPLE, "table": {"1": "C", "2": "B"}}, "exactly one card"),
        ({**EXAMPLE, "votes": {"B": "2"}}, "invalid round"),
        ({**EXAMPLE, "scores": {"A": -1}}, "cannot be negative"),
        ({**EXAMPLE, "colour": "red"}, "invalid round"),
        ({**EXAMPLE, "variant": "pictoric-gallery"}, "every card on the table"),
        ([1, 2], "invalid round"),
        (
            {
                **EXAMPLE,
                "table": {str(i): n for i, n in enumerate("ABCDEFG", 1)},
                "votes": {n: 1 for n in "BCDEFG"},
            },
            "Dixit is played by 3 to 6 players; this round has 7",
        ),
        (
            {
                **EXAMPLE,
                "variant": "imaginarium",
                "votes": {**{n: 1 for n in "CDEFGHI"}, "B": 3},
                "table": {str(i): n for i, n in enumerate("ABCDEFGHI", 1)},
            },
            "Imaginarium is played by 3 to 8 players; this round has 9",
        ),
        (
            {
                "variant": "pictoric-gallery",
                "storyteller": "S",
                "target": 1,
                "table": {str(i): "S" for i in range(1, 8)},
                "votes": {"A": 1, "B": 2},
            },
            "the gallery has 6 positions, not 7",
        ),
        ({**EXAMPLE, "votes": {"B": 1}}, 'C has no vote: add their vote, or list them in "absent"'),
        ({**EXAMPLE, "votes": {"B": 1, "C": 2}, "absent": ["C"]}, "C is marked absent but voted"),
    ],
)
def test_score_rejects_bad_input_with_one_clear_line(payload: object, message: str) -> None:
    code, out, err = score(payload)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err
    assert "Traceback" not in err


def test_score_accepts_a_player_marked_absent() -> None:
    r = {**EXAMPLE, "votes": {"B": 1}, "absent": ["C"]}
    assert score(r)[0] == 0


def test_score_runs_as_a_real_process_without_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "reverie", "score"],
        input=b'{"variant": "dixit"',
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode().startswith("error: malformed JSON")
    assert b"Traceback" not in proc.stderr


def test_simulate_prints_a_summary_and_json() -> None:
    result = runner.invoke(
        app, ["simulate", "--variant", "all", "--players", "4", "--games", "5", "--json"]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert [d["variant"] for d in data] == [
        "dixit",
        "imaginarium",
        "imaginarium-harmony",
        "pictoric",
        "pictoric-gallery",
    ]
    for d in data:
        assert d["games"] == 5 and d["failures"] == []
        assert d["turns_per_game"]["min"] >= 1
        assert len(d["win_rate_by_seat"]) == 4
        assert abs(sum(d["win_rate_by_seat"]) - 1) < 0.01
    table = runner.invoke(app, ["simulate", "--games", "3", "--seed", "9"])
    assert table.exit_code == 0
    assert "invariants: all held" in table.stdout


def test_simulate_is_deterministic_and_refuses_bad_player_counts() -> None:
    args = ["simulate", "--variant", "pictoric", "--players", "3", "--games", "4", "--json"]
    assert runner.invoke(app, args).stdout == runner.invoke(app, args).stdout
    bad = runner.invoke(app, ["simulate", "--variant", "dixit", "--players", "8"])
    assert bad.exit_code == 2 and "3 to 6 players" in bad.stderr


def test_simulate_exits_non_zero_when_an_invariant_breaks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import reverie.simulation as sim

    monkeypatch.setattr(sim, "invariant_violations", lambda state, **kw: ["a planted fault"])
    result = runner.invoke(app, ["simulate", "--games", "2"])
    assert result.exit_code == 1
    assert "a planted fault" in result.stderr


def test_serve_prints_its_url_and_keeps_the_log_in_the_data_folder(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "reverie", "serve", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        assert f"http://127.0.0.1:{port}/" in first
        import httpx

        for _ in range(100):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                import time

                time.sleep(0.05)
        page = httpx.get(f"http://127.0.0.1:{port}/")
        assert page.status_code == 200 and "Reverie" in page.text
        assert (tmp_path / "data" / "reverie.db").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"])
def test_serve_on_a_network_address_says_which_phone_features_need_https(
    tmp_path: Path, host: str
) -> None:
    """``make run HOST=0.0.0.0``: phones on the network open plain http:// pages, where
    their browsers leave out the wake lock, installing as an app and vibration; the
    server says so. On a loopback address (alone, or behind a TLS proxy) it does not."""
    import socket
    import time

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "reverie", "serve", "--host", host, "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60  # a bound on the start, not a speed test
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    said = " ".join(err.decode().split())
    features = ("keeping the screen awake", "installing a room as an app", "vibration")
    if host == "0.0.0.0":
        assert "over plain HTTP" in said and "HTTPS" in said
        assert all(f in said for f in features), said
        assert '"Running it for real"' in said
    else:
        assert "HTTPS" not in said and not any(f in said for f in features), said
