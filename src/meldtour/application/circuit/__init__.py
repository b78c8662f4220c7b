"""The circuit: people across tournaments, the organisations' rankings, the ratings
and the qualifications. Every name is importable from here; each job has its module:

- :mod:`.results`: the stored final places (at the awards, :func:`record_results`),
  which the rankings are computed from on every reading.
- :mod:`.identity`: **people.** A person's registrations and details; the people a
  registration may be, with the evidence (:func:`candidates`, :func:`suggest`: the
  same member number or birth year; a name alone never does — two 김민지 stay two
  people); the director says later which registrations are one person
  (:func:`merge`, :func:`same_person`) or not (:func:`split`). Each is audited (the
  ratings, derived, follow at once).
- :mod:`.registering`: **who a new registration is**, the one rule of every path
  that registers someone — a new person unless the director chooses who it is or the
  evidence names someone who played before; a seat kept for a qualification claimed
  by its holder (:func:`identify`, :func:`decide`, :func:`record`,
  :func:`possible_same`).
- :mod:`.acting`: **who acts** (:class:`Acting`) and the gates the use cases ask: a
  tournament the actor directs, a qualification key theirs to grant, whose member
  numbers and birth years they may read.
- :mod:`.rating`: **ratings**, derived: each pool's rating on a date is
  :func:`rating_book`, computed from the awarded divisions' counted games in the
  events' date order (never stored: a correction, a merge or a split shows at once);
  :func:`rating_table` is the list with names, :func:`person_ratings` a person's
  history, :func:`set_pool` the federation's choice of a division's pool.
- :mod:`.ranking`: **rankings.** An organisation's ranking (:func:`define_ranking`)
  counts every awarded division or those it names (:func:`count_division`), with its
  numbers; the table is :func:`ranking_table`, the pure
  :func:`~meldtour.tournament.ranking.national_ranking` over the stored places. With
  no ranking defined the default one (:data:`DEFAULT_RANKING`) counts every awarded
  division at the ``national`` level with the pure function's defaults.
- :mod:`.ranking_form`: a ranking as typed in a form or on the command line
  (:func:`check_ranking`, :func:`save_ranking`).
- :mod:`.qualifying`: **qualifications.** An award grants one
  (:func:`grant_qualification`: places 1 to N, passing down past whoever declines,
  :func:`decline`); a division keeps seats for holders (:func:`set_quota`): by
  qualification only, or reserved inside an open division; :class:`SeatBook` checks
  each new registration against them (the holder's person or claim code,
  :func:`claim_code`).
- :mod:`.seeding`: a first stage seeded by rating or ranking (:func:`seed_order`).
- :mod:`.page`: what a person's public page shows (:func:`person_page`).

The modules import each other one way (acting, qualifying, results, rating → identity →
registering;
ranking → ranking_form; rating, ranking, qualifying → seeding, page); a name with a
leading underscore is shared inside the package only.
The defaults and what each number means: docs/circuit.md, "Rankings".
"""

from __future__ import annotations

from .acting import Acting, Seer, directs, everything
from .identity import (
    KEEP_FIELDS,
    Candidate,
    Entry,
    MergeOutcome,
    PersonView,
    candidates,
    hidden,
    merge,
    people,
    person,
    same_person,
    set_person,
    split,
    suggest,
)
from .page import PersonPage, Played, person_page
from .qualifying import (
    Holder,
    SeatBook,
    SeatView,
    claim_code,
    decline,
    grant_qualification,
    holders,
    normal_code,
    parse_until,
    qualifications,
    seat_divisions,
    seats,
    set_quota,
)
from .ranking import (
    CIRCUIT_NAMES,
    DEFAULT_LEVEL,
    DEFAULT_RANKING,
    EventPoints,
    RankingEntry,
    RankingInfo,
    RankingTable,
    config_data,
    config_of,
    count_division,
    define_ranking,
    discriminator,
    parse_day,
    public_labels,
    ranking_key,
    ranking_table,
    rankings,
    set_discriminator,
)
from .ranking_form import (
    MAX_NUMBER,
    MAX_PLACES,
    RANKING_METHODS,
    RESERVED_KEYS,
    DivisionChoice,
    RankingForm,
    RankingRefused,
    check_ranking,
    ranking_divisions,
    save_ranking,
)
from .rating import (
    RATING,
    DivisionPool,
    PersonRating,
    RatingLine,
    RatingTable,
    division_pool,
    division_pools,
    ordinals,
    person_ratings,
    pool_events,
    pool_names,
    rating_book,
    rating_table,
    set_pool,
)
from .registering import (
    NEW,
    Decided,
    Identity,
    PersonChoice,
    Said,
    chosen_people,
    decide,
    identify,
    possible_same,
    record,
)
from .results import backfill, record_results
from .seeding import SEEDED, seed_order

__all__ = [
    "CIRCUIT_NAMES",
    "DEFAULT_LEVEL",
    "DEFAULT_RANKING",
    "KEEP_FIELDS",
    "MAX_NUMBER",
    "MAX_PLACES",
    "NEW",
    "RANKING_METHODS",
    "RATING",
    "RESERVED_KEYS",
    "SEEDED",
    "Acting",
    "Candidate",
    "Decided",
    "DivisionChoice",
    "DivisionPool",
    "Entry",
    "EventPoints",
    "Holder",
    "Identity",
    "MergeOutcome",
    "PersonChoice",
    "PersonPage",
    "PersonRating",
    "PersonView",
    "Played",
    "RankingEntry",
    "RankingForm",
    "RankingInfo",
    "RankingRefused",
    "RankingTable",
    "RatingLine",
    "RatingTable",
    "Said",
    "SeatBook",
    "SeatView",
    "Seer",
    "backfill",
    "candidates",
    "check_ranking",
    "chosen_people",
    "claim_code",
    "config_data",
    "config_of",
    "count_division",
    "decide",
    "decline",
    "define_ranking",
    "directs",
    "discriminator",
    "division_pool",
    "division_pools",
    "everything",
    "grant_qualification",
    "hidden",
    "holders",
    "identify",
    "merge",
    "normal_code",
    "ordinals",
    "parse_day",
    "parse_until",
    "people",
    "person",
    "person_page",
    "person_ratings",
    "pool_events",
    "pool_names",
    "possible_same",
    "public_labels",
    "qualifications",
    "ranking_divisions",
    "ranking_key",
    "ranking_table",
    "rankings",
    "rating_book",
    "rating_table",
    "record",
    "record_results",
    "same_person",
    "save_ranking",
    "seat_divisions",
    "seats",
    "seed_order",
    "set_discriminator",
    "set_person",
    "set_pool",
    "set_quota",
    "split",
    "suggest",
]
