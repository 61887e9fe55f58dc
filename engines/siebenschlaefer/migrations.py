"""Snapshot formats of Siebenschläfer and the steps between them: a game stored in an older format
is brought to the current one, step by step, before the engine reads it.

Format 1: the first, before the stalled-round rule. Format 2 (seeds/siebenschlaefer.md section 12):
the settings gain ``stalled_round``, and every finished round in ``history`` gains its ``reason``
and ``winners``. Format 3 (section 16, written since every move reports its events): every finished
round keeps the table as it ended (``top``, ``target``, ``pile_count``, ``stock_count``). Format 4
(section 16, one event vocabulary): the last move's ``events`` are kept as the log shows them
(``{"type", "public", "private"}``: ``played``, ``drew``, ``skipped`` ...) instead of in a vocabulary
of their own (``{"kind": "play", "seat", "cards", "count"}``), and ``drawn`` is gone: the drawer's
cards are in his ``drew`` event. Each step is pure: an encoded state of one format in, the same game
in the next format out.
"""

from __future__ import annotations

from typing import Any

from engines.cards import rank_of
from engines.siebenschlaefer.events import round_json
from engines.siebenschlaefer.options import Settings
from engines.siebenschlaefer.rules import draw_lots
from engines.siebenschlaefer.state import ACES, COUNT_VALUE, FULL_DECK, HAND_SIZE, RoundSummary, pair_value

#: The snapshot format this code writes.
FORMAT = 4


def state_1_to_2(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-1 state -> the same game in format 2 (seeds/siebenschlaefer.md 12).

    - ``settings.stalled_round`` = ``count_hands``, the new default: a table in a round that can
      never end should get its hands counted, as at the pub, instead of "aborted, no winner". Nothing that
      happened changes: a round in flight is checked for the stall only after its next move, and a
      format-1 game has never ended as stalled. ``max_turns`` keeps its stored value (the game was
      created with it).
    - Every finished round in ``history`` went out (format 1 knew no other end): ``reason``
      ``went_out`` and ``winners`` = ``[winner]``.
    """
    out = dict(data)
    out["settings"] = {**data["settings"], "stalled_round": "count_hands"}
    out["history"] = [{**r, "reason": "went_out", "winners": [r["winner"]]} for r in data["history"]]
    return out


def state_2_to_3(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-2 state -> the same game in format 3 (seeds/siebenschlaefer.md 16).

    Format 3 keeps with every finished round the table as it ended. A format-2 game did not keep it
    and it cannot be rebuilt (the next round's deal took the pile away), so its finished rounds get
    ``top``, ``target``, ``pile_count`` and ``stock_count`` null: the view's ``last_round.table`` is
    null for them (unknown), never a made-up table.
    """
    out = dict(data)
    out["history"] = [{**r, "top": None, "target": None, "pile_count": None, "stock_count": None}
                      for r in data["history"]]
    return out


def state_3_to_4(data: dict[str, Any]) -> dict[str, Any]:
    """Pure: an encoded format-3 state -> the same game in format 4 (seeds/siebenschlaefer.md 16).

    Each event of the last move becomes the log's event of the same thing, rebuilt from the state:

    - ``play`` -> ``played`` with the pair's ``value`` (null for aces); ``skip`` -> ``skipped``;
      ``pass`` -> ``passed``; ``reshuffle`` -> ``reshuffled``; ``lot`` -> ``lot``;
    - ``draw`` -> ``drew`` (``reason`` ``draw``), the drawer's cards taken from ``drawn``;
      ``penalty`` -> ``drew`` (``reason`` ``seven``) without them: format 3 did not keep which cards a
      7 made a seat draw (nor those of a draw that ended the round), so the drawer's view of such an
      event shows the count only;
    - ``reset`` -> ``reset`` with the start ``value`` the flipped cards set (section 7);
    - ``round_end`` -> ``round_ended``, the round being the matching one of ``history`` (the last ones:
      a round ends last in a move, but for a next round that is dealt locked), with the match totals
      after it; ``stalled`` is dropped (its round's ``round_ended`` says ``reason: stalled``);
    - ``deal`` -> ``dealt``, each seat's new hand private to it: the hands of the round being played,
      or, for a round that stalled in the same move, the hands it was counted with.
    """
    out = {k: v for k, v in data.items() if k != "drawn"}
    settings = Settings(**data["settings"])
    players = data["players"]
    history = [RoundSummary(**{**r, "payers": tuple(r["payers"]), "hand_values": tuple(r["hand_values"]),
                                "hands": tuple(tuple(h) for h in r["hands"]), "winners": tuple(r["winners"]),
                                "top": None if r["top"] is None else tuple(r["top"])})
               for r in data["history"]]
    old = data["events"]
    ended = sum(e["kind"] == "round_end" for e in old)
    rounds = iter(range(len(history) - ended, len(history)))
    events: list[dict[str, Any]] = []
    for n, e in enumerate(old):
        kind, seat, cards = e["kind"], e["seat"], e["cards"]
        if kind == "play":
            value = pair_value(cards[0], cards[1])
            events.append(_event("played", {"seat": seat, "cards": cards, "value": None if value == ACES else value}))
        elif kind in ("draw", "penalty"):
            drawn = data["drawn"] if kind == "draw" and len(data["drawn"]) == e["count"] else None
            events.append(_event("drew", {"seat": seat, "count": e["count"], "reason": "draw" if kind == "draw"
                                          else "seven"}, None if drawn is None else {seat: {"cards": drawn}}))
        elif kind in ("skip", "pass"):
            events.append(_event({"skip": "skipped", "pass": "passed"}[kind], {"seat": seat}))
        elif kind == "reshuffle":
            events.append(_event("reshuffled", {"count": e["count"]}))
        elif kind == "reset":
            events.append(_event("reset", {"cards": cards, "value": _start_value(cards, settings)}))
        elif kind == "round_end":
            i = next(rounds)
            totals = [sum(r.hand_values[s] for r in history[: i + 1]) for s in range(players)]
            paid = [sum(s in r.payers for r in history[: i + 1]) for s in range(players)]
            events.append(_event("round_ended", {**round_json(history[i]), "totals": totals, "paid": paid}))
        elif kind == "deal":
            events.append(_dealt(data, e["count"], _lots_after(old, n), history))
        elif kind == "lot":
            events.append(_event("lot", {"seat": seat, "card": cards[0]}))
    out["events"] = events
    return out


def _lots_after(old: list[dict[str, Any]], n: int) -> list[str]:
    """The lot cards drawn after the deal at ``old[n]``, up to the next deal."""
    cards = []
    for e in old[n + 1:]:
        if e["kind"] == "deal":
            break
        if e["kind"] == "lot":
            cards.append(e["cards"][0])
    return cards


def _event(kind: str, public: dict[str, Any], private: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """An encoded ``engines.core.Event``."""
    return {"type": kind, "public": public, "private": {str(s): p for s, p in (private or {}).items()}}


def _start_value(flipped: list[str], settings: Settings) -> int | None:
    """The value to beat after a reset flipped ``flipped`` (section 7, ``rules.flip_start_value``):
    the first legal pair of them (null for aces), or counted by ``sum_count_values``; else free."""
    for i in range(0, len(flipped) - 1, 2):
        value = pair_value(flipped[i], flipped[i + 1])
        if isinstance(value, int):
            return None if value == ACES else value
        if settings.reset_illegal_pair == "sum_count_values":
            return COUNT_VALUE[rank_of(flipped[i])] + COUNT_VALUE[rank_of(flipped[i + 1])]
    return None


def _dealt(data: dict[str, Any], number: int, lots: list[str], history: list[RoundSummary]) -> dict[str, Any]:
    """The ``dealt`` event of round ``number`` (1-based): the current round's, or one that stalled in
    the same move (its hands are those it was counted with; its opener drew the same lots)."""
    players = data["players"]
    if number == data["round"] + 1:
        hands, opener = [list(h) for h in data["hands"]], data["opener"]
    else:
        hands = [list(h) for h in history[number - 1].hands]
        holders = [s for s in range(players) if any(rank_of(c) == "2" for c in hands[s])]
        opener = holders[0] if len(holders) == 1 else draw_lots(holders or list(range(players)),
                                                                lots)[0]
    public = {"round": number, "opener": opener, "hand_counts": [len(h) for h in hands],
              "stock_count": len(FULL_DECK) - HAND_SIZE * players}
    return _event("dealt", public, {s: {"cards": h} for s, h in enumerate(hands)})


#: Old format -> the function giving the next format.
MIGRATIONS = {1: state_1_to_2, 2: state_2_to_3, 3: state_3_to_4}
