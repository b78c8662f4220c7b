"""The visitors' winner-guess vote: opened and closed by the director, one vote per
visitor, held against a script by vote codes (cards handed out at the venue, or the
players' badges) and by the votes' sources, which the director sees and may void;
and the prize draw among the right guesses, recorded and shown.

Decisions (docs/tournament.md, "7. Side events (000)"):

- A vote with codes counts one vote per code (voting again with the code changes
  it); a vote without codes counts one per browser (a signed cookie), and one client
  address may start only a few votes in a while (the web adapter's limit).
- Every vote keeps a short hash of its source address (never the address): a burst
  from one source shows on the director's page, who may void its votes (audited).
- The prize draw needs the vote closed and the stage decided; the seed is secret
  randomness, recorded with the draw, so the draw can be checked afterwards.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from meldtour.store import audit
from meldtour.store import polls as poll_rows
from meldtour.store.db import RowExists, Store
from meldtour.store.models import WinnerPollRow
from meldtour.store.repository import Loaded, load, now
from meldtour.tournament import TournamentError
from meldtour.tournament.registration import refuse_invisible
from meldtour.tournament.side import PollError, Vote, WinnerPoll, draw_prizes, open_poll
from meldtour.tournament.side import cast_vote as side_cast_vote
from meldtour.tournament.stages import stage_ranking

from .acting import Who, name_of, require_tournament
from .divisions import resolve_division
from .errors import UseCaseError

#: Vote codes: ten letters and digits no one confuses (no 0/O, 1/I/L, 2/Z, 5/S, 8/B):
#: 25^10 (about 2^46) codes, and nothing of a code is ever shown in public (the prize
#: draw names a card by its number). Cards printed before with eight still vote.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 10
#: The lengths a code typed may have (the eight of cards printed before).
CODE_LENGTHS = (8, 10)
#: At most this many codes per tournament (cards for the biggest venue and more).
MAX_CODES = 5000
#: A code voter's key: ``code-`` and the code (a browser's key never has a dash there).
CODE_VOTER = "code-"


def make_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str | None:
    """The code a visitor typed, as stored (``ACDE-FGHJ``, ``acdefghj``, with spaces):
    ``None`` when it cannot be a code."""
    raw = re.sub(r"[\s\-]", "", text.upper())[:32]
    if len(raw) not in CODE_LENGTHS or any(c not in CODE_ALPHABET for c in raw):
        return None
    return raw


def shown_code(code: str) -> str:
    """A code as printed: ``ACDEF-GHJKM`` (``ACDE-FGHJ`` for a card printed before)."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def card_label(number: int) -> str:
    """A card as the prize draw shows it in public: its printed number, never a
    character of its code (the draw showed the last four of eight: a guess of the
    other four won the prize)."""
    return f"#{number}"


@dataclass(frozen=True)
class DrawView:
    """A recorded prize draw: the winner, how many guessed right, the drawn voters
    (each as the name the voter gave, may be empty), the drawn voters' cards (each as
    its printed number, ``#12``; empty for a vote without a card) and the seed."""

    winner: int
    right: int
    prizes: int
    drawn: tuple[str, ...]
    drawn_voters: tuple[str, ...]
    seed: str
    at: str
    drawn_cards: tuple[str, ...] = ()

    @property
    def winners(self) -> tuple[tuple[str, str], ...]:
        """Each drawn voter as it is announced: (card, name), either may be empty."""
        cards = self.drawn_cards or ("",) * len(self.drawn)
        return tuple(zip(cards, self.drawn, strict=True))


@dataclass(frozen=True)
class PollView:
    """A division's winner-guess vote: its finalists, whether it is closed, the votes
    per finalist and in all, whether it takes only coded votes, and its prize draw."""

    division: str
    stage: int
    finalists: tuple[int, ...]
    closed: bool
    tally: dict[int, int]
    votes: int
    opened_at: str
    closed_at: str | None
    codes_required: bool = False
    draw: DrawView | None = None


@dataclass(frozen=True)
class VoteSource:
    """The votes from one source (a short hash of an address) in a vote."""

    source: str
    votes: int
    first_at: str
    last_at: str


def _draw_view(row: WinnerPollRow) -> DrawView | None:
    d = row.draw
    if not d:
        return None
    return DrawView(
        int(d["winner"]),
        int(d["right"]),
        int(d["prizes"]),
        tuple(str(x) for x in d["drawn"]),
        tuple(str(x) for x in d.get("drawn_voters", ())),
        str(d["seed"]),
        str(d["at"]),
        tuple(str(x) for x in d.get("drawn_cards", ())),
    )


def _poll_view(s: Any, division: str, row: WinnerPollRow) -> PollView:
    tally = dict.fromkeys(row.finalists, 0)
    for finalist, n in poll_rows.tally(s, row.id):
        tally[finalist] = tally.get(finalist, 0) + n
    return PollView(
        division,
        row.stage,
        tuple(row.finalists),
        row.closed,
        tally,
        sum(tally.values()),
        row.opened_at,
        row.closed_at,
        bool(row.codes_required),
        _draw_view(row),
    )


def _latest_poll(s: Any, loaded: Loaded, division: str) -> WinnerPollRow | None:
    div_row = loaded.divisions[division]
    return poll_rows.latest(s, div_row.id)


def _open_poll(s: Any, loaded: Loaded, division: str) -> WinnerPollRow:
    """The division's vote that is open; refused when none is."""
    row = _latest_poll(s, loaded, division)
    if row is None or row.closed:
        raise UseCaseError("usecase.no_vote_open", div=loaded.value.division(division).name)
    return row


def polls(store: Store, slug: str | None) -> dict[str, PollView]:
    """Each division's latest winner-guess vote (divisions without one are left out)."""
    with store.reading() as s:
        loaded = load(s, slug)
        out = {}
        for key in loaded.divisions:
            row = _latest_poll(s, loaded, key)
            if row is not None:
                out[key] = _poll_view(s, key, row)
        return out


def open_vote(
    store: Store, slug: str | None, division: str | None, *, who: Who, codes: bool = False
) -> PollView:
    """Open the winner-guess vote of the division's current stage: the finalists are
    the stage's players still in it. A closed vote of the same stage opens again.
    With ``codes``, only votes with one of the tournament's vote codes count."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        key = resolve_division(t, division)
        div = t.division(key)
        if not div.stages:
            raise UseCaseError("usecase.vote_before_start", div=div.name)
        index = len(div.stages) - 1
        stage = div.stages[index]
        if stage.finished and index + 1 == len(div.formats):
            raise UseCaseError("usecase.vote_too_late", div=div.name)
        try:
            open_poll(stage.active)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        if codes and not poll_rows.code_count(s, loaded.row.id):
            raise UseCaseError("usecase.vote_no_codes")
        div_row = loaded.divisions[key]
        row = poll_rows.of_stage(s, div_row.id, index)
        at = now()
        if row is None:
            row = poll_rows.add(
                s,
                tournament_id=loaded.row.id,
                division_id=div_row.id,
                stage=index,
                finalists=list(stage.active),
                opened_by=name_of(who),
                opened_at=at,
            )
        elif not row.closed:
            raise UseCaseError("usecase.vote_open", div=div.name)
        else:
            row.closed, row.closed_at = False, None
        row.codes_required = codes
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="open_vote",
            tournament_id=loaded.row.id,
            entity="vote",
            key=f"{key}/stage {index + 1}",
            before=None,
            after={"finalists": list(row.finalists), "codes": codes},
            why="",
        )
        s.flush()
        return _poll_view(s, key, row)


def close_vote(store: Store, slug: str | None, division: str | None, *, who: Who) -> PollView:
    """Close the division's open vote; its results are public from now on."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        key = resolve_division(loaded.value, division)
        row = _open_poll(s, loaded, key)
        row.closed, row.closed_at = True, now()
        view = _poll_view(s, key, row)
        audit.record(
            s,
            at=row.closed_at,
            who=name_of(who),
            action="close_vote",
            tournament_id=loaded.row.id,
            entity="vote",
            key=f"{key}/stage {row.stage + 1}",
            before=None,
            after={str(k): v for k, v in view.tally.items()},
            why="",
        )
        return view


def cast_vote(
    store: Store,
    slug: str | None,
    division: str | None,
    voter: str,
    finalist: int,
    *,
    name: str = "",
    code: str = "",
    source: str = "",
    confirm: bool = False,
) -> PollView:
    """A visitor's guess: one vote per voter key (or per vote code, where the vote
    takes codes); voting again, while the vote is open, changes the vote. (Two votes
    of one voter at once: the second finds the first's row on its retry and changes
    it.)

    A card's vote changes only from the device that cast it (``voter`` is the
    device's key): from another device it is refused (``usecase.vote_card_used``,
    naming the card by its printed number) unless ``confirm`` says that the person
    knows the card already voted; the confirmed device holds the card from then on."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{8,64}", voter):
        raise UseCaseError("usecase.voter_key")
    try:
        refuse_invisible(name)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    try:
        return _cast_vote(store, slug, division, voter, finalist, name, code, source, confirm)
    except RowExists:
        return _cast_vote(store, slug, division, voter, finalist, name, code, source, confirm)


def _cast_vote(
    store: Store,
    slug: str | None,
    division: str | None,
    voter: str,
    finalist: int,
    name: str,
    code: str,
    source: str,
    confirm: bool,
) -> PollView:
    device = voter
    with store.transaction() as s:
        loaded = load(s, slug)
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None:
            raise UseCaseError("usecase.vote_not_open")
        if row.codes_required and not row.closed:
            typed = normal_code(code)
            if not code.strip():
                raise UseCaseError("usecase.vote_code_needed")
            if typed is None or not poll_rows.has_code(s, loaded.row.id, typed):
                raise UseCaseError("usecase.vote_code_unknown", code=code.strip()[:20])
            voter = CODE_VOTER + typed
            card = _card_of(s, loaded.row.id, typed)
        poll = WinnerPoll(tuple(row.finalists), closed=row.closed)
        try:
            side_cast_vote(poll, voter, finalist)
        except PollError as exc:
            raise UseCaseError.of(exc) from None
        vote = poll_rows.vote_of(s, row.id, voter)
        if vote is None:
            poll_rows.add_vote(
                s,
                poll_id=row.id,
                voter=voter,
                name=name.strip()[:80],
                finalist=finalist,
                at=now(),
                source=source[:16],
                device=device if voter != device else "",
            )
        else:
            if voter != device and vote.device != device:
                if not confirm:
                    raise UseCaseError("usecase.vote_card_used", card=card)
                vote.device = device
            vote.finalist, vote.at = finalist, now()
            if name.strip():
                vote.name = name.strip()[:80]
        s.flush()
        return _poll_view(s, key, row)


def _card_of(s: Any, tournament_id: int, code: str) -> str:
    """A card as the public sees it: its printed number (its place among the codes)."""
    for n, c in enumerate(poll_rows.codes(s, tournament_id), 1):
        if c == code:
            return card_label(n)
    return ""


def my_vote(
    store: Store, slug: str | None, division: str, voter: str | None, code: str = ""
) -> int | None:
    """The finalist this voter (or this vote code) chose in the division's latest
    vote, if any."""
    typed = normal_code(code) if code else None
    if not voter and not typed:
        return None
    with store.reading() as s:
        loaded = load(s, slug)
        row = _latest_poll(s, loaded, division)
        if row is None:
            return None
        if row.codes_required and typed:
            return poll_rows.choice(s, row.id, CODE_VOTER + typed)
        return poll_rows.choice(s, row.id, voter) if voter else None


def vote_sources(store: Store, slug: str | None, division: str | None) -> list[VoteSource]:
    """The division's latest vote by source, the busiest first: a script's burst from
    one address stands out."""
    with store.reading() as s:
        loaded = load(s, slug)
        key = resolve_division(loaded.value, division)
        row = _latest_poll(s, loaded, key)
        if row is None:
            return []
        return [VoteSource(*r) for r in poll_rows.sources(s, row.id)]


def void_source(
    store: Store, slug: str | None, division: str | None, source: str, *, who: Who, why: str = ""
) -> int:
    """Void the votes of the division's open vote that came from ``source``
    (audited); how many were voided."""
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        key = resolve_division(loaded.value, division)
        row = _open_poll(s, loaded, key)
        if row.draw:
            raise UseCaseError("usecase.vote_drawn")
        n = poll_rows.void_source(s, row.id, source)
        if not n:
            raise UseCaseError("usecase.vote_no_source", source=source[:16])
        audit.record(
            s,
            at=now(),
            who=name_of(who),
            action="void_votes",
            tournament_id=loaded.row.id,
            entity="vote",
            key=f"{key}/stage {row.stage + 1}",
            before={"source": source, "votes": n},
            after=None,
            why=why,
        )
        return n


def make_vote_codes(store: Store, slug: str | None, count: int, *, who: Who) -> list[str]:
    """Make ``count`` new vote codes for the tournament (audited; the codes themselves
    are not in the log); all its codes, in order."""
    if not 1 <= count <= MAX_CODES:
        raise UseCaseError("usecase.vote_code_count", most=MAX_CODES)
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        have = poll_rows.codes(s, loaded.row.id)
        if len(have) + count > MAX_CODES:
            raise UseCaseError("usecase.vote_code_count", most=MAX_CODES - len(have))
        taken = set(have)
        new: list[str] = []
        while len(new) < count:
            code = make_code()
            if code not in taken:
                taken.add(code)
                new.append(code)
        at = now()
        poll_rows.add_codes(s, loaded.row.id, new, at)
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="vote_codes",
            tournament_id=loaded.row.id,
            entity="vote",
            key="codes",
            before={"codes": len(have)},
            after={"codes": len(have) + count},
            why="",
        )
        return have + new


def vote_codes(store: Store, slug: str | None) -> list[str]:
    """The tournament's vote codes, in the order they were made."""
    with store.reading() as s:
        loaded = load(s, slug)
        return poll_rows.codes(s, loaded.row.id)


def draw_vote_prizes(
    store: Store, slug: str | None, division: str | None, prizes: int, *, who: Who
) -> PollView:
    """Draw ``prizes`` voters among those who guessed the winner of the vote's stage:
    the vote closed, the stage decided; recorded once, with its seed (audited)."""
    if not 1 <= prizes <= 100:
        raise UseCaseError("usecase.vote_prizes", most=100)
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        t = loaded.value
        key = resolve_division(t, division)
        row = _latest_poll(s, loaded, key)
        if row is None:
            raise UseCaseError("usecase.vote_not_open")
        if row.draw:
            raise UseCaseError("usecase.vote_drawn")
        div = t.division(key)
        if row.stage >= len(div.stages) or not div.stages[row.stage].finished:
            raise UseCaseError("usecase.vote_draw_undecided", div=div.name)
        winner = stage_ranking(t, key, row.stage)[0]
        rows = poll_rows.votes(s, row.id)
        poll = WinnerPoll(
            tuple(row.finalists),
            tuple(Vote(v.voter, v.finalist, v.at) for v in rows),
            closed=row.closed,
        )
        seed = secrets.token_hex(16)
        try:
            drawn = draw_prizes(poll, winner, prizes, seed)
        except (PollError, TournamentError) as exc:
            raise UseCaseError.of(exc) from None
        assert drawn.draw is not None
        by_voter = {v.voter: v for v in rows}
        card_numbers = {c: n for n, c in enumerate(poll_rows.codes(s, loaded.row.id), 1)}

        def card(voter: str) -> str:
            if voter.startswith(CODE_VOTER):
                code = voter[len(CODE_VOTER) :]
                return card_label(card_numbers[code]) if code in card_numbers else ""
            return ""

        at = now()
        row.draw = {
            "winner": winner,
            "right": len(drawn.draw.right),
            "prizes": prizes,
            "seed": seed,
            "drawn": [by_voter[v].name for v in drawn.draw.drawn],
            "drawn_cards": [card(v) for v in drawn.draw.drawn],
            "drawn_voters": list(drawn.draw.drawn),
            "at": at,
            "by": name_of(who),
        }
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="draw_prizes",
            tournament_id=loaded.row.id,
            entity="vote",
            key=f"{key}/stage {row.stage + 1}",
            before=None,
            after={
                k: row.draw[k]
                for k in ("winner", "right", "prizes", "seed", "drawn", "drawn_cards")
            },
            why="",
        )
        s.flush()
        return _poll_view(s, key, row)


__all__ = [
    "CODE_ALPHABET",
    "MAX_CODES",
    "DrawView",
    "PollView",
    "VoteSource",
    "card_label",
    "cast_vote",
    "close_vote",
    "draw_vote_prizes",
    "make_vote_codes",
    "my_vote",
    "normal_code",
    "open_vote",
    "polls",
    "shown_code",
    "void_source",
    "vote_codes",
    "vote_sources",
]
