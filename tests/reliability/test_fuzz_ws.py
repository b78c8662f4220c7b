"""Fuzzing the game's WebSocket (``/play/t/{id}/ws``) of the real app under uvicorn:
random and mutated frames — JSON objects with every field wrong in turn, JSON that is
not an object, text that is not JSON, mutated copies of good messages, binary frames —
from both seated players, a spectator, a forged seat cookie and a seat cookie of another
table.

After every frame the sender's socket must still answer (a ``hello`` probe gets its
snapshot within seconds: no hang, no dropped connection), every answer must be a
protocol message (an error or refusal with a reason in words, never "server"), and the
game must be exactly as before unless the sender holds the seat whose turn it is and got
an ``ack`` — and then the result must be right: the version one up, a play that the rules
engine (``meldtour check``, independently) finds legal, its tiles gone from the rack and
on the table, a draw one tile more. The server's log must show no traceback.

The number of frames tried is printed (``pytest -s``) and recorded in RELIABILITY.md;
``MELDTOUR_FUZZ_EXAMPLES`` raises it for a campaign run by hand.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx2 as httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meldtour.cli import check
from meldtour.core.rules import find_rules

from .servers import Server, tracebacks

EXAMPLES = int(os.environ.get("MELDTOUR_FUZZ_EXAMPLES", "150"))
RULES = find_rules("standard")
TIMEOUT = 10.0
ALLOWED = {
    "snapshot",
    "frame",
    "synced",
    "ack",
    "refused",
    "stale",
    "error",
    "draft_ok",
    "table",
    "draft",
}
SAME = ("board", "rack", "rack_sizes", "pool_left", "melded", "current", "turn_no", "end")
TRIED: Counter[str] = Counter()
OUTCOMES: Counter[str] = Counter()

junk: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
BAD_TILES = ["", "r0", "r14", "x5", "R5", "j", "JJ", "b-1", "🀄", "<script>", "k١", "r1'--"]


class Player:
    def __init__(self, name: str, ws: ClientConnection, seat: int | None) -> None:
        self.name, self.ws, self.seat = name, ws, seat
        self.view: dict[str, Any] | None = None
        self.version = 0


class Table:
    """A two-person table: both seats held by this test, plus three onlookers."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.probes = 0
        with httpx.Client(base_url=server.base) as http:
            made = http.post(
                "/play/tables",
                data={
                    "preset": "standard",
                    "turn_seconds": "600",
                    "seat_count": "2",
                    "seat0": "human",
                    "seat1": "human",
                },
            )
            assert made.status_code == 303, made.text
            self.id = made.headers["location"].rsplit("/", 1)[1]
            tokens = []
            for seat, name in ((0, "Ann"), (1, "보라")):
                r = http.post(f"/play/t/{self.id}/join", data={"seat": str(seat), "name": name})
                assert r.status_code == 303, r.text
                tokens.append(r.cookies[f"meldtour_seat_{self.id}"])
            other = http.post(
                "/play/tables",
                data={"preset": "standard", "seat_count": "2", "seat0": "human", "seat1": "greedy"},
            )
            other_id = other.headers["location"].rsplit("/", 1)[1]
            r = http.post(f"/play/t/{other_id}/join", data={"seat": "0", "name": "Eve"})
            other_token = r.cookies[f"meldtour_seat_{other_id}"]
        forged = tokens[0][:-2] + ("AA" if not tokens[0].endswith("AA") else "BB")
        cookies = {
            "seat0": tokens[0],
            "seat1": tokens[1],
            "watcher": None,
            "forged": forged,
            "other_table": other_token,
        }
        self.players: dict[str, Player] = {}
        for name, token in cookies.items():
            headers = {"Cookie": f"meldtour_seat_{self.id}={token}"} if token else {}
            ws = connect(
                f"ws://127.0.0.1:{server.port}/play/t/{self.id}/ws",
                additional_headers=headers,
                open_timeout=TIMEOUT,
                legacy=True,
            )
            first = json.loads(ws.recv(TIMEOUT))
            assert first["type"] == "snapshot", first
            player = Player(name, ws, first["seat"])
            player.view, player.version = first["view"], first["version"]
            self.players[name] = player
        # The seat comes from the cookie alone: a forged one or another table's is a spectator.
        assert [p.seat for p in self.players.values()] == [0, 1, None, None, None]

    def close(self) -> None:
        for p in self.players.values():
            p.ws.close()

    @property
    def truth(self) -> dict[str, Any]:
        view = self.players["seat0"].view
        assert view is not None
        return view

    def probe(self, player: Player) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Everything the socket said since, up to the snapshot that answers a hello.
        A marker (a message of an unknown type, answered with an error naming it) follows
        the hello, so that a snapshot the fuzzed frame itself asked for is not taken for
        the probe's."""
        self.probes += 1
        marker = f"probe-{self.probes}"
        player.ws.send(json.dumps({"type": "hello", "version": None}))
        player.ws.send(json.dumps({"type": marker}))
        said = []
        while True:
            message = json.loads(player.ws.recv(TIMEOUT))
            if message["type"] == "error" and marker in str(message.get("reason")):
                break
            said.append(message)
        assert said and said[-1]["type"] == "snapshot", said
        snap = said.pop()
        player.view, player.version = snap["view"], snap["version"]
        return said, snap

    def drain(self) -> None:
        for p in self.players.values():
            try:
                while True:
                    p.ws.recv(0)
            except TimeoutError:
                pass


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    where = tmp_path_factory.mktemp("ws-fuzz")
    with Server(f"sqlite:///{where / 'fuzz.db'}", where) as s:
        yield s
    assert tracebacks(s.output()) == [], s.output()[-4000:]


@pytest.fixture(scope="module")
def table(server: Server) -> Iterator[list[Table]]:
    holder = [Table(server)]
    yield holder
    holder[0].close()


def tiles_of(board: Any) -> list[str]:
    return sorted(t for meld in board for t in (meld if isinstance(meld, list) else meld["tiles"]))


def plain_board(board: Any) -> bool:
    return isinstance(board, list) and all(
        isinstance(m, list) and all(isinstance(t, str) for t in m) for m in board
    )


def message_for(draw: Any, t: Table, sender: Player) -> Any:
    """A frame for ``sender``: mostly near-valid messages, some mutated, some junk."""
    view = t.truth
    version = t.players["seat0"].version
    rack = (sender.view or {}).get("rack") or []
    board = [m if isinstance(m, list) else m.get("tiles", []) for m in view["board"]]
    tile = (
        st.sampled_from(rack + tiles_of(view["board"]) + BAD_TILES + ["r5", "J"])
        if rack
        else st.sampled_from([*BAD_TILES, "r5", "J", "k13"])
    )
    meld = st.lists(tile, max_size=6)
    boards = st.one_of(
        st.lists(meld, max_size=6),
        st.lists(meld, max_size=2).map(lambda extra: board + extra),
        st.just(board),
        junk,
    )
    message = st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "move", "draft", "hello", "nonsense"]) | junk},
        optional={
            "id": st.text(max_size=4) | st.integers(-3, 3) | junk,
            "version": st.sampled_from([version, version, version - 1, version + 1]) | junk,
            "action": st.sampled_from(["play", "draw", "draw", "pass", "redeal", "fly"]) | junk,
            "board": boards,
            "seat": st.integers(-1, 4) | junk,
        },
    )
    kind = draw(
        st.sampled_from(["good", "object", "object", "object", "mutated", "junk", "text", "binary"])
    )
    if kind == "good":  # a well-formed move, legal or not, with the right version
        rid = draw(st.text(min_size=1, max_size=8))
        action = draw(st.sampled_from(["draw", "draw", "play", "pass"]))
        extra = (
            {"board": [*board, draw(st.lists(tile, min_size=3, max_size=4))]}
            if action == "play"
            else {}
        )
        return {"type": "move", "id": rid, "version": version, "action": action, **extra}
    if kind == "object":
        return draw(message)
    if kind == "junk":
        return draw(junk)
    if kind == "binary":
        return draw(st.binary(max_size=40))
    if kind == "text":
        return draw(st.text(max_size=40))
    text = json.dumps(draw(message), ensure_ascii=False)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["cut", "insert", "replace"]))
        if how == "cut":
            text = text[:at]
        elif how == "insert":
            text = text[:at] + draw(st.text(min_size=1, max_size=3)) + text[at:]
        else:
            text = (
                text[:at]
                + draw(st.sampled_from(['"', "{", "]", ",", "0", "\\", "\x00"]))
                + text[at + 1 :]
            )
    return text


def check_answers(answers: list[dict[str, Any]]) -> None:
    for a in answers:
        assert a.get("type") in ALLOWED, a
        if a["type"] in ("refused", "error"):
            reason = a.get("reason")
            assert isinstance(reason, str) and reason and reason != "server", a
            assert "Traceback" not in reason, a


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)


# websockets' reader thread uses the random module (frame masks) while hypothesis draws.
@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisDeprecationWarning")
@FUZZ
@given(st.data())
def test_the_socket_survives_any_frame(table: list[Table], data: st.DataObject) -> None:
    t = table[0]
    if t.truth["end"] is not None:  # the game ended (the pool ran dry): a new table
        t.close()
        table[0] = t = Table(t.server)
    sender = t.players[data.draw(st.sampled_from(list(t.players)))]
    frame = message_for(data.draw, t, sender)
    before = {name: dict(p.view or {}) for name, p in t.players.items()}
    old_version = t.players["seat0"].version
    if isinstance(frame, (bytes, str)):
        sender.ws.send(frame)
    else:
        sender.ws.send(json.dumps(frame, ensure_ascii=False))
    TRIED[sender.name] += 1

    answers, snap = t.probe(sender)
    check_answers(answers)
    acks = [a for a in answers if a["type"] == "ack" and not a.get("duplicate")]
    OUTCOMES.update(a["type"] for a in answers)
    if not acks:
        # Nothing may have changed, whoever sent what.
        assert snap["version"] == old_version, (frame, answers)
        if snap["view"] is not None:
            for key in SAME:
                assert snap["view"][key] == before[sender.name].get(key), (key, frame, answers)
        t.drain()
        return

    # An accepted move: only from the seat whose turn it was, and right.
    assert len(acks) == 1 and isinstance(frame, dict), (frame, answers)
    seat = sender.seat
    old = before[sender.name]
    assert seat is not None and old["current"] == seat, (sender.name, frame)
    new = snap["view"]
    assert snap["version"] == old_version + 1 == acks[0]["version"]
    assert new["current"] != seat or old["end"] is not None or new["end"] is not None
    action = frame.get("action")
    if action == "draw":
        assert new["rack_sizes"][seat] == old["rack_sizes"][seat] + (old["pool_left"] > 0)
    elif action == "play":
        assert plain_board(frame["board"])
        judged = check.handle(
            {
                "board": [m for m in old["board"]],
                "rack": old["rack"],
                "melded": old["melded"][seat],
                "play": frame["board"],
            },
            RULES,
        )
        assert judged["legal"], (judged, frame)
        assert tiles_of(new["board"]) == tiles_of(frame["board"])
        placed = len(judged["placed"])
        assert new["rack_sizes"][seat] == old["rack_sizes"][seat] - placed
    else:
        assert action in ("pass", "redeal"), frame
    for p in t.players.values():  # everyone's view moves on
        if p is not sender:
            t.probe(p)
    t.drain()


def test_a_seat_cannot_be_played_from_another_socket(table: list[Table]) -> None:
    """Every good move for the seat whose turn it is, sent from each other socket —
    with the seat named in the message, the right version, a fresh id — is refused, and
    nothing changes."""
    t = table[0]
    t.drain()
    current = t.truth["current"]
    owner = f"seat{current}"
    version = t.players["seat0"].version
    for name, p in t.players.items():
        if name == owner:
            continue
        for i, move in enumerate(
            ({"action": "draw"}, {"action": "pass"}, {"action": "play", "board": t.truth["board"]})
        ):
            p.ws.send(
                json.dumps(
                    {
                        "type": "move",
                        "id": f"steal-{name}-{i}",
                        "seat": current,
                        "version": version,
                        **move,
                    }
                )
            )
            answers, snap = t.probe(p)
            assert [a["type"] for a in answers] == ["refused"], answers
            assert snap["version"] == version
    for p in t.players.values():
        _answers, snap = t.probe(p)
        assert snap["version"] == version and snap["view"] is not None
        assert snap["view"]["current"] == current


def test_report_how_many_frames_were_tried() -> None:
    print(
        f"\nfuzzed WebSocket frames: {sum(TRIED.values())} by sender {dict(TRIED)}; "
        f"answers {dict(OUTCOMES)}"
    )
    assert sum(TRIED.values()) >= min(EXAMPLES, 50)


def test_no_table_and_junk_first(server: Server, table: list[Table]) -> None:
    """A socket to a table the server does not hold is closed at once with 4404 (the
    page of a finished game learns it is gone, rather than "reconnecting" for ever);
    junk as the very first frames on a new socket is answered and the socket stays."""
    gone = connect(
        f"ws://127.0.0.1:{server.port}/play/t/nope/ws", open_timeout=TIMEOUT, legacy=True
    )
    with pytest.raises(ConnectionClosed) as closed:
        gone.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    t = table[0]
    ws = connect(
        f"ws://127.0.0.1:{server.port}/play/t/{t.id}/ws", open_timeout=TIMEOUT, legacy=True
    )
    ws.send(b"\x00\xff")
    ws.send("{")
    ws.send("[]")
    kinds = [json.loads(ws.recv(TIMEOUT))["type"] for _ in range(4)]
    assert kinds == ["snapshot", "error", "error", "error"]
    ws.close()
