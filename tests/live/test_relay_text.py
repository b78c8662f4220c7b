"""The cross-process relay passes a frame's JSON text as it is (issue 29, cost per move):
the envelope the owner publishes holds the frame's own text, and the socket's node cuts
that text out, decodes it for the page's checks and sends the very same text."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from meldtour.live.cluster import Cluster, out_of
from meldtour.live.game import ENCODE, Shared

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


SID = "a1b2c3d4e5f60718"


def published(message: dict[str, Any], sid: str = SID) -> str:
    """What ``Cluster.post_out`` puts on the wire (no Redis needed: its outbox)."""
    cluster = Cluster.__new__(Cluster)
    cluster.prefix = "t"
    cluster._outbox = asyncio.Queue()
    cluster.post_out("node", sid, message)
    channel, data = cluster._outbox.get_nowait()
    assert channel == "t:node:node"
    return data


@given(st.dictionaries(st.text(), JSON, max_size=6))
def test_an_envelope_gives_back_the_message_and_its_text(body: dict[str, Any]) -> None:
    message = Shared(type="frame", **{k: v for k, v in body.items() if k != "type"})
    message.text = ENCODE(message)
    data = published(message)
    assert json.loads(data) == {
        "t": "out",
        "sid": "a1b2c3d4e5f60718",
        "m": json.loads(message.text),
    }
    got = out_of(data)
    assert got is not None
    sid, relayed = got
    assert sid == SID
    assert relayed.text == message.text  # the same text, not encoded again
    assert relayed == json.loads(message.text)


def test_a_message_without_text_is_encoded_once_and_read_the_same() -> None:
    plain = {"type": "refused", "id": "1.2", "reason": "stale 한글", "args": {"n": 3}}
    got = out_of(published(plain))
    assert got is not None and got[1] == plain and json.loads(got[1].text) == plain


def test_other_messages_are_not_taken_for_a_socket_s() -> None:
    for data in (
        '{"t":"in","gid":"g","sid":"s","m":{"type":"move"}}',
        '{"t":"out","sid":"s","m":[1,2]}',  # not an object
        '{"t":"out","sid":"s","m":{"a":1}',  # cut short
        '{"t":"out","sid":"s"',
        "not json",
        b'{"t":"out","sid":"s","m":{}}',
    ):
        assert out_of(data) is None, data


def test_an_integer_past_64_bits_from_a_client_reaches_the_owner_exactly() -> None:
    """A client may send any JSON number (a request id the server echoes as text);
    ENCODE then writes it with the standard library, and the owner reads it back as
    the same number (the listener's reader for every message but a socket's)."""
    message = {"t": "in", "gid": "g", "sid": "s", "m": {"type": "move", "id": 10**30}}
    assert json.loads(ENCODE(message)) == message


@given(st.lists(st.dictionaries(st.text(), JSON, max_size=4), min_size=1, max_size=6))
def test_a_node_s_messages_go_one_a_line_in_one_publish(bodies: list[dict[str, Any]]) -> None:
    """The writer joins what it has for one node with newlines (JSON text holds none,
    whatever the strings: a newline, U+2028); the listener reads each line, in order."""
    from meldtour.live.game import Subscriber

    cluster = Cluster.__new__(Cluster)
    cluster.prefix = "t"
    cluster._outbox = asyncio.Queue()
    sub = Subscriber(None)
    cluster.routes = {SID: sub}
    for body in bodies:
        cluster.post_out("node", SID, {**body, "s": "a\nb\u2028c"})
    lines = [cluster._outbox.get_nowait()[1] for _ in bodies]
    assert all("\n" not in line for line in lines)
    for line in "\n".join(lines).split("\n"):
        cluster._read(line)
    got = [sub.queue.get_nowait() for _ in bodies]
    assert got == [json.loads(ENCODE({**b, "s": "a\nb\u2028c"})) for b in bodies]
