"""The words of online play, by key: the computer levels, the refusals said to the
player, the tiles, the table page's script (catalogs ``play`` and ``table``), the counted
phrases, the chat's phrases and the hint button (``hint``). The routes of
:mod:`meldtour.web.routes.play` and :mod:`meldtour.web.routes.review` serve them."""

from __future__ import annotations

from .i18n import N_

LEVEL_NAMES = {
    "beginner": N_("Beginner"),
    "greedy": N_("Greedy"),
    "club": N_("Club player"),
    "expert": N_("Expert"),
}
LEVEL_TEXTS = {
    "beginner": N_(
        "Makes its first meld as soon as it can, then only adds tiles to the "
        "ends of melds on the table or lays new melds from its own rack; it never "
        "rearranges the table."
    ),
    "greedy": N_(
        "Every turn it puts down as many tiles as it possibly can, rearranging the "
        "table as needed, and draws only when it cannot play at all."
    ),
    "club": N_(
        "Plays like a good club player: puts down as many tiles as it can, "
        "rearranging the table, but holds its tiles back while another player is "
        "close to going out."
    ),
    "expert": N_(
        "Makes the smallest initial meld it can and keeps its tiles, drawing every "
        "turn, until it can put its whole rack down in one turn; just before the last "
        "tiles of the pool it may put down a single tile that opens nothing for the "
        "others, so as not to be the last to reach them; near the end, when "
        "another player is close to going out or everyone else is holding too, it "
        "lays all it can — but not a play that would let a player with few tiles go "
        "out: then it lays only what opens nothing for the others, or draws; in the last "
        "tiles of the pool it plays the game out in its head on a few guesses of the "
        "hidden tiles, and makes the move that wins most often."
    ),
}

#: Refusals the page words for the player it answers, by code: "your turn", not the
#: seat numbers the engine's sentence names.
TO_THE_PLAYER = {
    "turn.not_yours": N_("It is not your turn"),
    "game.over": N_("The game is over"),
    "redeal.too_few_doubles": N_("A new deal needs %(need)s doubles; your rack holds %(have)s"),
}

TILE_WORDS = {
    "k": N_("black %(n)s"),
    "r": N_("red %(n)s"),
    "o": N_("orange %(n)s"),
    "b": N_("blue %(n)s"),
    "J": N_("the joker"),
}

#: What the table page's script shows, by key ({name}-style blanks filled in there).
TEXTS = {
    "your_turn": N_("Your turn"),
    "their_turn": N_("{name}'s turn"),
    "waiting": N_("Waiting for players to sit down"),
    "watching": N_("You are watching this table"),
    "done": N_("Done"),
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "undo": N_("Undo"),
    "reset": N_("Reset"),
    "sort_colour": N_("Sort by colour"),
    "sort_number": N_("Sort by number"),
    "new_meld": N_("Drop tiles here to start a new meld"),
    "rack": N_("Your rack"),
    "board": N_("Table"),
    "pool": N_("Pool: {n}"),
    "tiles": N_("{n} tiles"),
    "time_left": N_("Time left"),
    "you": N_("you"),
    "melded": N_("initial meld made"),
    "computer": N_("computer"),
    "refused": N_("Refused"),
    "board_stays": N_("A tile that was on the table stays on the table"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "game_over": N_("The game is over"),
    "winner": N_("Winner: {name}"),
    "score": N_("Score"),
    "penalty": N_("Penalty"),
    "final_rack": N_("Rack left"),
    "take_seat": N_("Take this seat"),
    "your_name": N_("Your name"),
    "free_seat": N_("Free seat"),
    "ev_play_one": N_("{name} put down {n} tile"),
    "ev_play": N_("{name} put down {n} tiles"),
    "ev_initial": N_("{name} made the initial meld"),
    "ev_draw": N_("{name} drew a tile"),
    "ev_draw_me": N_("You drew {tiles}"),
    "ev_penalty_one": N_("{name} drew {n} penalty tile"),
    "ev_penalty": N_("{name} drew {n} penalty tiles"),
    "ev_timeout": N_("Time ran out for {name}"),
    "ev_failed_keep": N_(
        "{name}'s turn failed: the completed melds stay, the other tiles go back to the rack"
    ),
    "ev_failed_revert": N_("{name}'s turn failed: the table goes back as it was"),
    "ev_points": N_("{name}: {n} penalty points"),
    "ev_pass": N_("{name} passed"),
    "ev_pool_empty": N_("The pool is empty"),
    "ev_redeal": N_("{name} demanded a new deal"),
    "ev_illegal_end": N_("{name} ended the turn with an illegal table"),
    "redeal": N_("Demand a new deal ({n} doubles)"),
    "redeal_confirm": N_("Your rack holds {n} doubles: demand a new deal for everyone?"),
    "score_page": N_("Score"),
    "replay_page": N_("Replay the game"),
    "analysis_page": N_("Analysis"),
    "seconds": N_("{n} s"),
}

#: The table page's own words (catalog ``table``): what just happened, building a
#: draft, the signals, the keyboard, the chat and the rematch.
TABLE_TEXTS = {
    "ev_put": N_("{name} put down {tiles}"),
    "ev_drew_penalty": N_("{name} drew penalty tiles: {tiles}"),
    "seat_draw": N_("Seat draw"),
    "starts": N_("{name} plays first"),
    "computer_name": N_("{level} {n}"),
    "step_back": N_("Earlier move"),
    "step_on": N_("Later move"),
    "step_now": N_("Back to now"),
    "step_of": N_("Move {i} of {n}"),
    "last_moves": N_("What just happened"),
    "nothing_yet": N_("No move yet"),
    "invalid_meld": N_("Not a valid meld yet"),
    "meld_reason": N_("Why"),
    "initial_value": N_("Toward the initial meld: {value} of {need}"),
    "initial_enough": N_("Initial meld: {value} points, enough"),
    "initial_touches": N_(
        "The initial meld is made from your rack alone: leave the table's melds as they are"
    ),
    "new_meld_button": N_("New meld"),
    "tile_rack": N_("{tile}, on your rack"),
    "tile_table": N_("{tile}, on the table"),
    "tile_mine": N_("{tile}, from your rack"),
    "tile_added": N_("{tile}, just put down"),
    "tile_moved": N_("{tile}, just moved"),
    "tile_picked": N_("{tile} picked up: choose a meld, or New meld"),
    "meld_label": N_("Meld {i}"),
    "signals": N_("Signals"),
    "sound": N_("Sound"),
    "vibrate": N_("Vibration"),
    "tab_title": N_("Tab title"),
    "warning_sound": N_("Warning in the last 10 seconds"),
    "title_your_turn": N_("Your turn!"),
    "chat": N_("Say"),
    "said": N_("{name}: {phrase}"),
    "rematch": N_("Play again at this table"),
    "rematch_join": N_("Join the rematch"),
    "table_gone": N_("This table is no longer held by the server"),
    "sorted_by_colour": N_("The rack stays sorted by colour"),
    "sorted_by_number": N_("The rack stays sorted by number"),
    "illegal_costs": N_("The table is not valid: Done now is a failed turn ({points} points)"),
    # The end of a game: the shout, the match's running total and its final standing.
    "rummikub": N_("Rummikub!"),
    "match_after": N_("The match after game {i} of {n}"),
    "match_final": N_("The match is over: final standing"),
    "match_game_no": N_("Game {i} of {n}"),
    "match_game": N_("Game {i}"),
    "match_total": N_("Total"),
    "match_wins": N_("Wins"),
    "match_place": N_("Place"),
    "match_winner": N_("{name} wins the match"),
    "match_next": N_("Next game of the match ({i} of {n})"),
    "match_new": N_("Start a new match at this table"),
    "match_rule_wins": N_("Ranked by wins, then by points"),
    "match_rule_points": N_("Ranked by points"),
    "match_rule_league": N_("Ranked by points, a win counting {n} more"),
    # Why a rack counts what it counts, under the result.
    "why": N_("Why"),
    "why_rule": N_(
        "A loser pays what is left on their rack: the numbers on its tiles, {joker} for a "
        "joker; a player who never made the initial meld pays {no_meld}, or {could_meld} if "
        "they could have made it. The penalty column holds the points of failed turns and "
        "time-outs."
    ),
    "why_joker": N_("a joker left on the rack: {p} points"),
    "why_jokers": N_("{k} jokers left on the rack: {p} points each"),
    "why_no_meld": N_("no initial meld: {p} points"),
    "why_could_meld": N_("could have made the initial meld and did not: {p} points"),
    "why_penalty": N_("failed turns and time-outs: {p} points"),
}

#: The keyboard's hint under the table (and its single keys: static/play.js).
KEYS_HINT = N_(
    "Keyboard: the arrow keys move between tiles and melds; Enter or Space picks a tile "
    "up and puts it before the tile you are on; N puts it in a new meld, A at the end of "
    "the meld you last added to; Escape puts it back. D: Done · X: Draw · Z: Undo · "
    "S: Sort."
)

#: Words that count, as (one, many): the page picks by the number, as
#: :meth:`~meldtour.web.i18n.Translations.ngettext` does.
PLURAL_TEXTS = {
    "tiles": (N_("{n} tile"), N_("{n} tiles")),
    "moved": (N_("{n} tile of the table moved"), N_("{n} tiles of the table moved")),
    "penalty": (N_("{name} drew {n} penalty tile"), N_("{name} drew {n} penalty tiles")),
    "drew_penalty": (
        N_("{name} drew a penalty tile: {tiles}"),
        N_("{name} drew penalty tiles: {tiles}"),
    ),
}

#: The chat's fixed phrases, by the key the live game knows (live.game.PHRASES).
PHRASE_WORDS = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "nice": N_("Nice move!"),
    "thinking": N_("Let me think…"),
    "sorry": N_("Sorry!"),
    "thanks": N_("Thank you!"),
    "good_game": N_("Good game!"),
    "again": N_("One more game?"),
}


#: The hint button's words (static/hint.js; catalog domain ``hint``).
HINT_TEXTS = {
    "shown_one": N_("Hint: the best play lays {n} tile; it is on the table as your draft"),
    "shown": N_("Hint: the best play lays {n} tiles; it is on the table as your draft"),
    "keep": N_("Keep it"),
    "back": N_("Put it back"),
    "none_draw": N_("Hint: no play goes down from your rack: draw a tile"),
    "none_pass": N_("Hint: no play goes down from your rack: pass"),
    "button": N_("Hint ({n} a turn)"),
    "button_left": N_("Hint ({left} of {n} left this turn)"),
}
